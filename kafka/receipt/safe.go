package receipt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// The files kgroups keeps in its state directory (receipts, group locks,
// the signing key) are opened so that nothing planted there can turn a
// write against its user: never through a symbolic link (the last part of
// the path is opened with O_NOFOLLOW where the system has it, and checked
// with lstat), only when it is a regular file owned by this user that the
// group and others can neither read nor write, in a directory that is not
// a link, is owned by this user and that others cannot write. Anything else
// is an *UnsafeFileError naming the path and what is wrong with it.

// UnsafeFileError is the refusal of a file (or directory) of the state
// directory that is not what kgroups made.
type UnsafeFileError struct {
	Path string
	// Problem says what is wrong: "it is a symbolic link", ...
	Problem string
}

func (e *UnsafeFileError) Error() string {
	return fmt.Sprintf("refusing to use %s: %s. kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again", e.Path, e.Problem)
}

// checkDir checks a directory of the state directory (the receipts
// folder, the folder of the key) with lstat.
func checkDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return &UnsafeFileError{Path: dir, Problem: "it is a symbolic link, not a folder"}
	case !st.IsDir():
		return &UnsafeFileError{Path: dir, Problem: "it is not a folder"}
	}
	if p := ownerProblem(st); p != "" {
		return &UnsafeFileError{Path: dir, Problem: p}
	}
	if perm := st.Mode().Perm(); perm&0o022 != 0 && !modesIgnored() {
		if st.Mode()&fs.ModeSticky != 0 {
			// The sticky bit stops others replacing a file of ours, not
			// making their own first under a name kgroups will use.
			return &UnsafeFileError{Path: dir, Problem: fmt.Sprintf("it is a shared folder that others can add files to (mode %04o, sticky); fix with: chmod 700 %s, or point XDG_STATE_HOME at a folder of your own", perm|0o1000, dir)}
		}
		return &UnsafeFileError{Path: dir, Problem: fmt.Sprintf("others can add and replace files in it (mode %04o); fix with: chmod 700 %s", perm, dir)}
	}
	return nil
}

// checkFile checks an open file of the state directory: a regular file,
// owned by this user, that the group and others can neither read nor
// write.
func checkFile(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return checkFileInfo(st, path)
}

func checkFileInfo(st fs.FileInfo, path string) error {
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return &UnsafeFileError{Path: path, Problem: "it is a symbolic link"}
	case !st.Mode().IsRegular():
		return &UnsafeFileError{Path: path, Problem: "it is not a regular file (" + fileKind(st.Mode()) + ")"}
	}
	if p := ownerProblem(st); p != "" {
		return &UnsafeFileError{Path: path, Problem: p}
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 && !modesIgnored() {
		return &UnsafeFileError{Path: path, Problem: fmt.Sprintf("its mode is %04o, open to others (kgroups makes it 0600)", perm)}
	}
	return nil
}

// openSafe opens path in the state directory without following a
// symbolic link, without blocking, and checks it with checkFile; flag is
// os.OpenFile's. A link at path is an *UnsafeFileError, whatever it
// points to, and so is a FIFO, a socket or a device.
func openSafe(path string, flag int, perm fs.FileMode) (*os.File, error) {
	// Non-blocking, so that a FIFO planted at path does not hold the
	// open until a writer comes: it is opened at once, then refused
	// by checkFile before anything is read.
	f, err := os.OpenFile(path, flag|oNoFollow|oNonBlock, perm)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, &UnsafeFileError{Path: path, Problem: "it is a symbolic link"}
		}
		return nil, err
	}
	if err := checkFile(f, path); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// fileKind names what a mode that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// IsUnsafe reports whether err is the refusal of a planted or loosened
// file of the state directory.
func IsUnsafe(err error) bool {
	var u *UnsafeFileError
	return errors.As(err, &u)
}
