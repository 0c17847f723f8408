package receipt

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// tryLockExcl takes the lock by creating its file exclusively, where
// flock(2) is missing: the file exists exactly while the lock is held. A
// file left by a process of this host that no longer runs is removed and
// the lock taken over. It returns the lock, or nil and the holder.
func tryLockExcl(path string) (*Lock, Holder, error) {
	note := ""
	for try := 0; try < 2; try++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
		if err == nil {
			_, werr := f.Write(me().encode())
			serr := f.Sync()
			cerr := f.Close()
			if err := errors.Join(werr, serr, cerr); err != nil {
				_ = os.Remove(path)
				return nil, Holder{}, err
			}
			return &Lock{Path: path, Note: note, unlock: func() error { return os.Remove(path) }}, Holder{}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, Holder{}, err
		}
		data, err := readSafe(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, Holder{}, err
		}
		h := decodeHolder(data)
		switch {
		case h.PID == 0 && unsaidFor(path) < time.Minute:
			// Just created, not yet written; or a holder that died
			// before it could say who it was, which a minute tells.
			return nil, h, nil
		case h.PID != 0 && (h.Host != me().Host || processAlive(h.PID)):
			return nil, h, nil
		}
		note = takeoverNote(path, h)
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, h, err
		}
	}
	return nil, Holder{}, nil
}

// unsaidFor is how long ago the lock file at path was last written.
func unsaidFor(path string) time.Duration {
	st, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	return time.Since(st.ModTime())
}

// readSafe reads a lock file of the state directory with openSafe.
func readSafe(path string) ([]byte, error) {
	f, err := openSafe(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return io.ReadAll(io.LimitReader(f, 4096))
}
