//go:build unix

package debuglog

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO would block the open until a reader came, and a device may be the
// terminal the UI draws on: both are refused.
func TestOpenRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(fifo); err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := Open("/dev/null"); err == nil || !strings.Contains(err.Error(), "/dev/null is not a regular file") {
		t.Errorf("device: %v", err)
	}
}
