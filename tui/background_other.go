//go:build !unix

package tui

import (
	"os"
	"time"
)

// readAnswer does not ask where there is no poll(2): the background is
// taken as dark.
func readAnswer(*os.File, time.Duration) ([]byte, error) { return nil, errNoAnswer }
