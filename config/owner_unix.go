//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownerOf says whose a file is when it is neither this user's nor root's
// ("owned by uid 1001"), "" when it is.
func ownerOf(st fs.FileInfo) string {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if sys.Uid == 0 || int(sys.Uid) == os.Geteuid() {
		return ""
	}
	return fmt.Sprintf("owned by uid %d, not by you (uid %d)", sys.Uid, os.Geteuid())
}
