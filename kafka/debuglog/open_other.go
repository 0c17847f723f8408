//go:build !unix

package debuglog

import "io/fs"

// Without O_NOFOLLOW and O_NONBLOCK the lstat checks stand alone.
const (
	oNoFollow = 0
	oNonBlock = 0
)

// ownerProblem: ownership is not checked where there are no uids.
func ownerProblem(fs.FileInfo) string { return "" }
