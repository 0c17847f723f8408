package receipt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
)

// Tighten makes an existing receipts folder private again: receipts name
// groups and topics, and the lock files in it say who is writing, so only
// its owner may list, read or add to it. A folder looser than 0700 is
// chmod-ed to 0700 and Tighten returns a note saying so; a missing folder
// is left for WriteRecord to create. Windows permissions are not modes, so
// there it does nothing.
func Tighten(dir string) (string, error) {
	if dir == "" || runtime.GOOS == "windows" {
		return "", nil
	}
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("receipts directory: %w", err)
	}
	mode := st.Mode().Perm()
	if !st.IsDir() || mode&0o077 == 0 {
		return "", nil
	}
	if err := os.Chmod(dir, mode&0o700|0o700); err != nil {
		return "", fmt.Errorf("receipts directory %s has mode %04o, open to others, and could not be made private: %w", dir, mode, err)
	}
	return fmt.Sprintf("the receipts directory %s had mode %04o, open to others; it is now 0700", dir, mode), nil
}
