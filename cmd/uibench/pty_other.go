//go:build !linux

package main

import (
	"errors"
	"os"
)

// openPTY is Linux only, like the /proc reads.
func openPTY(int, int) (*os.File, *os.File, error) {
	return nil, nil, errors.New("uibench runs on Linux only: it opens /dev/ptmx and reads /proc")
}
