//go:build !unix

package receipt

import "os"

// processAlive reports whether a process with this pid runs on this host;
// where that cannot be told, it says yes, so a lock is never taken from a
// live process.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
