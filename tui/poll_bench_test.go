package tui

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/viewtest"
)

// BenchmarkPollResult is the root's Update taking one poll result, on the
// UI loop, once the history is warm: 2,000 groups of 12 partitions and
// 10,000 groups of 4 partitions with the groups screen on show, and one
// group of 50,000 partitions with its
// group screen open (its Timeline, Simulate and Diagnosis tabs too). An
// op is every Update the poll costs the UI loop: the poll's result and
// the judging job's answer (the swap and every screen taking the poll).
// The job itself (making the back a copy of the front, then judging the
// poll) runs outside the timer, as it runs outside the UI loop; its time
// is reported as off-loop-ns/op.
func BenchmarkPollResult(b *testing.B) {
	for _, bc := range []struct {
		name  string
		s     *kafka.Snapshot
		group string
	}{
		{"groups=2000,partitions=24000", emptyGroups2000(), ""},
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
			timed := false
			var off time.Duration
			// offLoop runs the judging jobs among cmd's, off the timer;
			// their time is reported apart, as off-loop-ns/op.
			offLoop := func(cmd tea.Cmd) []tea.Msg {
				if !timed {
					return h.judged(cmd)
				}
				b.StopTimer()
				defer b.StartTimer()
				start := time.Now()
				msgs := h.judged(cmd)
				off += time.Since(start)
				return msgs
			}
			deliver := func(i int) {
				h.m.startPoll()
				pending := offLoop(h.send(pollResultMsg{gen: h.m.poll.gen, snap: at(i)}))
				for len(pending) > 0 {
					msg := pending[0]
					pending = append(pending[1:], offLoop(h.send(msg))...)
				}
			}
			for i := range 70 { // past the ring, so nothing grows
				deliver(i)
				if i == 0 && bc.group != "" {
					h.m.openGroup(bc.group)
				}
			}
			i := 70
			timed = true
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				deliver(i)
				i++
			}
			b.ReportMetric(float64(off.Nanoseconds())/float64(b.N), "off-loop-ns/op")
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

// BenchmarkPollDataMemory measures the heap the root keeps for the poll
// data (lag trackers and rebalance timelines, both copies: judge.go) for
// 2,000 groups of 12 partitions (24,000 partitions over 20 topics) once
// every ring is full. The polls go through the judging jobs' own steps:
// a job makes the back a copy of the front (copyOf), sharing its history,
// and has it take the next poll; the back becomes the front, and the old
// front lets go of what it holds (release). It reports the bytes kept
// between polls (bytes/root: one copy) and while a job judges
// (bytes/root-judging: the back a copy of the front). The snapshot itself
// is not counted: both copies share it with the screens.
func BenchmarkPollDataMemory(b *testing.B) {
	s := emptyGroups2000()
	cfg := lag.DefaultConfig()
	polls := max(cfg.Samples, cfg.TimePoints, cfg.Window) + 1
	var between, judging float64
	for range b.N {
		var before, idle, busy, snapOnly runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		front, back := newPollData(cfg), newPollData(cfg)
		var last op
		for i := range polls {
			c := *s
			c.Time = s.Time.Add(time.Duration(i) * 5 * time.Second)
			c.Groups = slices.Clone(s.Groups)
			for g := range c.Groups {
				ps := slices.Clone(c.Groups[g].Partitions)
				for p := range ps {
					ps[p].LogEnd += int64(10 * i)
					ps[p].Committed += int64(9 * i)
					ps[p].Lag = ps[p].LogEnd - ps[p].Committed
				}
				c.Groups[g].Partitions = ps
			}
			back.copyOf(front)
			last = op{snap: &c}
			back.apply(last)
			front, back = back, front
			back.release()
		}
		runtime.GC()
		runtime.ReadMemStats(&idle)
		back.copyOf(front) // the next job's copy
		runtime.GC()
		runtime.ReadMemStats(&busy)
		runtime.KeepAlive(front)
		runtime.KeepAlive(back)
		// front and back are dead from here: the collection frees them.
		runtime.GC()
		runtime.ReadMemStats(&snapOnly) // the latest snapshot alone
		runtime.KeepAlive(last.snap)
		between = float64(idle.HeapAlloc) - float64(snapOnly.HeapAlloc)
		judging = float64(busy.HeapAlloc) - float64(snapOnly.HeapAlloc)
	}
	b.ReportMetric(between, "bytes/root")
	b.ReportMetric(between/24000, "bytes/partition")
	b.ReportMetric(judging, "bytes/root-judging")
}

// emptyGroups2000 is the reference cluster: 2,000 Empty groups,
// each with commits on the 12 partitions of one of 20 topics (24,000
// partitions).
func emptyGroups2000() *kafka.Snapshot {
	s := &kafka.Snapshot{Time: viewtest.Epoch, Brokers: viewtest.Snapshot(viewtest.Epoch, 0).Brokers}
	for g := range 2000 {
		name := fmt.Sprintf("group-%04d", g)
		grp := kafka.Group{Name: name, Type: kafka.TypeClassic, State: kafka.StateEmpty}
		for p := range int32(12) {
			grp.Partitions = append(grp.Partitions, viewtest.Part(fmt.Sprintf("topic-%02d", g%20), p, 1000, 0, 1100, nil))
		}
		s.Groups = append(s.Groups, grp)
	}
	return s
}
