package main

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"
)

// pipeTerm is a pty master stand-in: what the program writes comes from a
// pipe, and the answers are kept.
type pipeTerm struct {
	io.Reader
	mu  sync.Mutex
	out bytes.Buffer
}

func (p *pipeTerm) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

// TestTerminalAnswersQueries: the colour query and the cursor query are
// answered in the order they were asked, also when a query is cut across
// two reads, and the mark shows when the text first came.
func TestTerminalAnswersQueries(t *testing.T) {
	r, w := io.Pipe()
	p := &pipeTerm{Reader: r}
	term := watch(p, nil, "group-0")
	for _, chunk := range []string{"\x1b]11;?\x1b", "\\\x1b[6", "n", "hello group-", "00001", "\x1b[6n"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	_ = w.Close()
	<-term.done
	want := "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b[1;1R" + "\x1b[1;1R"
	if got := p.out.String(); got != want {
		t.Errorf("answers %q, want %q", got, want)
	}
	if _, ok := term.mark("group-0"); !ok {
		t.Error("the group mark, cut across two reads, was not seen")
	}
	if got := term.between(time.Time{}, time.Now().Add(time.Hour)); got != int64(len("\x1b]11;?\x1b\\\x1b[6nhello group-00001\x1b[6n")) {
		t.Errorf("counted %d bytes", got)
	}
}

// TestPollClockSplitsPolls: ListGroups to every broker within a moment is
// one poll; one after a quiet moment starts the next.
func TestPollClockSplitsPolls(t *testing.T) {
	var c pollClock
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{0, time.Millisecond, 2 * time.Millisecond, 2 * time.Second, 2*time.Second + time.Millisecond, 4 * time.Second} {
		c.seen(t0.Add(d))
	}
	got := c.since(t0.Add(time.Second))
	if len(got) != 2 || !got[0].Equal(t0.Add(2*time.Second)) || !got[1].Equal(t0.Add(4*time.Second)) {
		t.Errorf("polls since 1s: %v", got)
	}
	if n := len(c.since(t0)); n != 3 {
		t.Errorf("%d polls in all, want 3", n)
	}
}
