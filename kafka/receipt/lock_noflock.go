//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package receipt

var tryLock = tryLockExcl
