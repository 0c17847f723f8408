//go:build !unix

package receipt

import (
	"io/fs"
	"runtime"
)

// Without O_NOFOLLOW the lstat checks stand alone.
const oNoFollow = 0

// oNonBlock: no FIFOs to wait on.
const oNonBlock = 0

// ownerProblem: ownership is not checked where there are no uids.
func ownerProblem(fs.FileInfo) string { return "" }

// modesIgnored reports a system whose permissions are not modes.
func modesIgnored() bool { return runtime.GOOS == "windows" }
