//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package receipt

import (
	"errors"
	"io"
	"os"
	"syscall"
)

var tryLock = tryLockFlock

// tryLockFlock takes the lock with flock(2) on the lock file, which the
// kernel releases when the holder exits however it exits. The holder
// writes who it is into the file and removes the file before it releases
// the lock, so a file found with content when its lock is free was left by
// a process that died holding it, and is taken over. It returns the lock,
// or nil and the holder.
func tryLockFlock(path string) (*Lock, Holder, error) {
	for range 3 {
		f, err := openSafe(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, Holder{}, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			h := readHolder(f)
			_ = f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
				return nil, h, nil
			}
			return nil, Holder{}, err
		}
		// The holder before us may have removed the file between our
		// open and our flock: then we hold the lock of a file nobody
		// else will see, and must start again.
		if !samePath(f, path) {
			_ = f.Close()
			continue
		}
		note := ""
		if prev := readHolder(f); prev.PID != 0 {
			note = takeoverNote(path, prev)
		}
		terr := f.Truncate(0)
		_, werr := f.WriteAt(me().encode(), 0)
		if err := errors.Join(terr, werr, f.Sync()); err != nil {
			_ = os.Remove(path)
			_ = f.Close() // closing releases the flock
			return nil, Holder{}, err
		}
		return &Lock{Path: path, Note: note, unlock: func() error {
			// Remove, then release: whoever opened the file
			// meanwhile finds it gone once it gets the flock.
			rerr := os.Remove(path)
			cerr := f.Close()
			return errors.Join(rerr, cerr)
		}}, Holder{}, nil
	}
	return nil, Holder{}, nil
}

// samePath reports whether path still names the open file f.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

func readHolder(f *os.File) Holder {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 4096))
	if err != nil || len(data) == 0 {
		return Holder{}
	}
	return decodeHolder(data)
}
