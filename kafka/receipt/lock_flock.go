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
// kernel releases when the holder exits however it exits, so a lock is
// never left behind. The holder writes who it is into the file and
// empties it when it releases the lock: a file found full when the lock is
// free was left by a process that died holding it. It returns the lock, or
// nil and the holder.
func tryLockFlock(path string) (*Lock, Holder, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
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
	note := ""
	if prev := readHolder(f); prev.PID != 0 {
		note = takeoverNote(path, prev)
	}
	terr := f.Truncate(0)
	_, werr := f.WriteAt(me().encode(), 0)
	if err := errors.Join(terr, werr, f.Sync()); err != nil {
		_ = f.Truncate(0)
		_ = f.Close() // closing releases the flock
		return nil, Holder{}, err
	}
	return &Lock{Path: path, Note: note, unlock: func() error {
		terr := f.Truncate(0)
		cerr := f.Close()
		return errors.Join(terr, cerr)
	}}, Holder{}, nil
}

func readHolder(f *os.File) Holder {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 4096))
	if err != nil || len(data) == 0 {
		return Holder{}
	}
	return decodeHolder(data)
}
