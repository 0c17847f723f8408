//go:build unix

package debuglog

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// oNoFollow refuses a symbolic link at the last part of a path; oNonBlock
// opens a FIFO without waiting for a reader.
const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

// ownerProblem says whose a file is when it is not this user's.
func ownerProblem(st fs.FileInfo) string {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || int(sys.Uid) == os.Geteuid() {
		return ""
	}
	return fmt.Sprintf("owned by uid %d, not by you (uid %d)", sys.Uid, os.Geteuid())
}
