package tui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// BenchmarkPollResult is the root's Update taking one poll result, on the
// UI loop, once the history is warm: 10,000 groups of 4 partitions with
// the groups screen on show, and one group of 50,000 partitions with its
// group screen open. The judging job the result starts runs outside the
// timer, as it runs outside the UI loop; the Update that takes the job's
// verdicts is timed with the one that takes the poll.
func BenchmarkPollResult(b *testing.B) {
	for _, bc := range []struct {
		name  string
		s     *kafka.Snapshot
		group string
	}{
		{"groups=10000", viewtest.ManyGroups(10_000), ""},
		{"partitions=50000", viewtest.BigGroup(50_000), "big"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := newHarness(b, 120, 40, Options{})
			at := func(i int) *kafka.Snapshot {
				p := *bc.s
				p.Time = bc.s.Time.Add(time.Duration(i) * 5 * time.Second)
				return &p
			}
			deliver := func(i int, timed bool) {
				h.m.startPoll()
				cmd := h.send(pollResultMsg{gen: h.m.poll.gen, snap: at(i)})
				if timed {
					b.StopTimer()
				}
				msgs := h.judged(cmd) // the judging job, off the UI loop
				if timed {
					b.StartTimer()
				}
				for _, msg := range msgs {
					cmd := h.send(msg)
					if timed {
						b.StopTimer()
					}
					h.catchUp(cmd)
					if timed {
						b.StartTimer()
					}
				}
			}
			for i := range 70 { // past the ring, so nothing grows
				deliver(i, false)
				if i == 0 && bc.group != "" {
					h.m.openGroup(bc.group)
				}
			}
			i := 70
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				deliver(i, true)
				i++
			}
		})
	}
}

// judged runs the judging jobs among cmd's Cmds and returns their answers;
// the other Cmds (timers, exact reads) are dropped.
func (h *harness) judged(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, h.judged(c)...)
		}
		return out
	case judgedMsg:
		return []tea.Msg{msg}
	}
	return nil
}

// catchUp runs the job that brings the back copy up to date, and gives
// its answer to the root.
func (h *harness) catchUp(cmd tea.Cmd) {
	for _, msg := range h.judged(cmd) {
		h.catchUp(h.send(msg))
	}
}
