//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestCLISendsNoTerminalQuery: a command on a terminal writes its output
// and nothing else: no background-colour query (ESC]11;?) and no cursor
// position request (ESC[6n), which a terminal that does not answer
// (script, CI, some SSH jump hosts) made kgroups wait five seconds for,
// and whose answers a real one could leave on the prompt.
func TestCLISendsNoTerminalQuery(t *testing.T) {
	bin := buildKgroups(t)
	for _, args := range [][]string{{"version"}, {"-b", "127.0.0.1:1", "--timeout", "200ms", "list"}, {"--help"}} {
		master, slave := openTestPTY(t)
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "TERM=xterm-256color", "LANG=C.UTF-8"}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		_ = slave.Close()
		var out bytes.Buffer
		done := make(chan struct{})
		go func() {
			buf := make([]byte, 4096)
			for {
				n, err := master.Read(buf)
				out.Write(buf[:n])
				if err != nil {
					close(done)
					return
				}
			}
		}()
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		select {
		case err := <-waited:
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatalf("%v: %v", args, err)
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v did not end", args)
		}
		<-done
		got := out.String()
		if strings.Contains(got, "\x1b]11;?") || strings.Contains(got, "\x1b[6n") {
			t.Errorf("%v queried the terminal: %q", args, got[:min(len(got), 80)])
		}
		if !strings.Contains(got, "kgroups") {
			t.Errorf("%v: output %q", args, got)
		}
	}
}

// openTestPTY opens a pseudo-terminal pair.
func openTestPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m, s
}
