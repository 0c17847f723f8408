//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestUndoRefusesAFIFO: a receipt path that is a FIFO (or a folder) is
// refused at once, not read until a writer comes.
func TestUndoRefusesAFIFO(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	fifo := filepath.Join(t.TempDir(), "receipt.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for path, kind := range map[string]string{fifo: "a named pipe", dir: "a folder"} {
		start := time.Now()
		code, stdout, stderr := runKgroups(t, "-b", "127.0.0.1:1", "undo", path)
		want := "kgroups: receipt " + path + " is " + kind + ", not a regular file: give the path of a receipt kgroups wrote\n"
		if code != 1 || stdout != "" || stderr != want || time.Since(start) > 10*time.Second {
			t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
		}
	}
}
