//go:build unix

package receipt

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

const oNoFollow = syscall.O_NOFOLLOW

// oNonBlock opens a FIFO without waiting for its other end.
const oNonBlock = syscall.O_NONBLOCK

// ownerProblem says when a file is not owned by this process's user.
func ownerProblem(st fs.FileInfo) string {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := os.Geteuid(); int(sys.Uid) != uid {
		return fmt.Sprintf("it is owned by uid %d, not by you (uid %d)", sys.Uid, uid)
	}
	return ""
}

// modesIgnored reports a system whose permissions are not modes.
func modesIgnored() bool { return false }
