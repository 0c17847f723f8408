//go:build linux

package tui

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the master, which plays the terminal,
// and the slave, which kgroups writes to.
func openPTY(t *testing.T) (master, slave *os.File) {
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
	t.Cleanup(func() { _ = s.Close(); _ = m.Close() })
	return m, s
}

// fakeTerminal reads what is sent to the terminal and, when answer is
// not empty, answers a cursor position request with it.
type fakeTerminal struct {
	mu  sync.Mutex
	got bytes.Buffer
}

func (ft *fakeTerminal) sent() string {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.got.String()
}

func playTerminal(master *os.File, answer string) *fakeTerminal {
	ft := &fakeTerminal{}
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := master.Read(buf)
			ft.mu.Lock()
			ft.got.Write(buf[:n])
			asked := bytes.Contains(ft.got.Bytes(), []byte("\x1b[6n"))
			ft.mu.Unlock()
			if asked && answer != "" {
				_, _ = master.WriteString(answer)
				answer = ""
			}
			if err != nil {
				return
			}
		}
	}()
	return ft
}

// TestAskBackground: the UI asks a terminal for its background once,
// before it starts, and reads the answer; a terminal that does not
// answer costs backgroundTimeout at most; NO_COLOR, TERM=dumb and
// COLORFGBG decide without asking.
func TestAskBackground(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	const query = "\x1b]11;?\x1b\\\x1b[6n"
	for _, tc := range []struct {
		name   string
		color  bool
		env    func(string) string
		answer string
		asked  bool
		dark   bool
	}{
		{"a light terminal", true, env("TERM", "xterm-256color"), "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[5;1R", true, false},
		{"a dark terminal", true, env("TERM", "xterm-256color"), "\x1b]11;rgb:1e1e/1e1e/1e1e\x07\x1b[5;1R", true, true},
		{"no answer", true, env("TERM", "xterm-256color"), "", true, true},
		{"NO_COLOR", false, env("TERM", "xterm-256color", "NO_COLOR", "1"), "", false, true},
		{"TERM=dumb", true, env("TERM", "dumb"), "", false, true},
		{"COLORFGBG", true, env("TERM", "xterm-256color", "COLORFGBG", "0;15"), "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			master, slave := openPTY(t)
			ft := playTerminal(master, tc.answer)
			r := lipgloss.NewRenderer(slave)
			start := time.Now()
			askBackground(r, slave, tc.color, tc.env)
			if took := time.Since(start); took > backgroundTimeout+time.Second {
				t.Errorf("asking took %s", took)
			}
			if r.HasDarkBackground() != tc.dark {
				t.Errorf("dark background %v, want %v", r.HasDarkBackground(), tc.dark)
			}
			time.Sleep(50 * time.Millisecond) // what was sent has reached the master
			if sent := ft.sent(); (sent == query) != tc.asked || (!tc.asked && sent != "") {
				t.Errorf("sent %q to the terminal, asked %v", sent, tc.asked)
			}
		})
	}
}
