//go:build unix

package tui

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// readAnswer reads what the terminal f sends until a cursor position
// report ends it, or timeout passes.
func readAnswer(f *os.File, timeout time.Duration) ([]byte, error) {
	fd := int(f.Fd())
	deadline := time.Now().Add(timeout)
	var got []byte
	buf := make([]byte, 256)
	for !dsrEnd(got) {
		left := time.Until(deadline)
		if left <= 0 || len(got) > 4096 {
			return got, errNoAnswer
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left/time.Millisecond)+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return got, err
		}
		if n == 0 {
			return got, errNoAnswer
		}
		k, err := unix.Read(fd, buf)
		if err != nil && !errors.Is(err, unix.EINTR) && !errors.Is(err, unix.EAGAIN) {
			return got, err
		}
		if k > 0 {
			got = append(got, buf[:k]...)
		}
	}
	return got, nil
}
