package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// terminal reads everything a program writes to its pty and remembers when
// each chunk arrived, so the harness can count the bytes written between
// two moments and find when a text first appeared.
type terminal struct {
	mu     sync.Mutex
	chunks []chunk
	total  int64
	tail   []byte // the last bytes read, for a marker cut across reads
	marks  map[string]time.Time
	want   []string
	reply  io.Writer // answers the terminal queries
	log    io.Writer // a copy of everything read, when set
	done   chan struct{}
}

// queries are what a program may ask its terminal, with a terminal's
// answer: the background colour (OSC 11, which lipgloss asks for to pick
// adaptive colours, waiting up to 5s for an answer) and the cursor
// position (which follows it, so that a terminal that ignores OSC 11 still
// answers something). A black background and the top-left corner.
var queries = []struct{ ask, answer string }{
	{"\x1b]11;?\x1b\\", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
	{"\x1b[6n", "\x1b[1;1R"},
}

type chunk struct {
	at time.Time
	n  int
}

// watch starts reading the pty's master, answering the program's terminal
// queries on it. Each text of want is looked for in the output; mark tells
// when it first showed.
func watch(master io.ReadWriter, log io.Writer, want ...string) *terminal {
	t := &terminal{marks: map[string]time.Time{}, want: want, reply: master, log: log, done: make(chan struct{})}
	r := io.Reader(master)
	go t.read(r)
	return t
}

func (t *terminal) read(r io.Reader) {
	defer close(t.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			now := time.Now()
			t.mu.Lock()
			if t.log != nil {
				_, _ = fmt.Fprintf(t.log, "\n=== %s %d bytes\n", now.Format("15:04:05.000"), n)
				_, _ = t.log.Write(buf[:n])
			}
			t.chunks = append(t.chunks, chunk{at: now, n: n})
			t.total += int64(n)
			seen := len(t.tail)
			t.tail = append(t.tail, buf[:n]...)
			t.answer(seen)
			for _, w := range t.want {
				if _, ok := t.marks[w]; !ok && bytes.Contains(t.tail, []byte(w)) {
					t.marks[w] = now
				}
			}
			if keep := 256; len(t.tail) > keep {
				t.tail = append(t.tail[:0], t.tail[len(t.tail)-keep:]...)
			}
			t.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// answer replies to the queries that end in tail[seen:], in the order
// they were asked.
func (t *terminal) answer(seen int) {
	type ask struct {
		at     int
		answer string
	}
	var asks []ask
	for _, q := range queries {
		for from := max(0, seen-len(q.ask)+1); ; {
			i := bytes.Index(t.tail[from:], []byte(q.ask))
			if i < 0 {
				break
			}
			asks = append(asks, ask{from + i, q.answer})
			from += i + len(q.ask)
		}
	}
	slices.SortFunc(asks, func(a, b ask) int { return a.at - b.at })
	for _, a := range asks {
		_, _ = io.WriteString(t.reply, a.answer)
	}
}

// mark is when text first showed, and whether it has.
func (t *terminal) mark(text string) (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	at, ok := t.marks[text]
	return at, ok
}

// between counts the bytes read in [from, to).
func (t *terminal) between(from, to time.Time) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var n int64
	for _, c := range t.chunks {
		if !c.at.Before(from) && c.at.Before(to) {
			n += int64(c.n)
		}
	}
	return n
}
