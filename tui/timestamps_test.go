package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
)

// readingPoller polls like seqPoller and reads record timestamps: each
// record was written age before the clock's time.
type readingPoller struct {
	*seqPoller
	age time.Duration

	mu    sync.Mutex
	asked [][]string
}

func (p *readingPoller) CommittedTimestamps(_ context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var asked []string
	out := make(map[kafka.CommitKey]kafka.RecordTime)
	for _, q := range parts {
		asked = append(asked, q.Topic+"/"+itoa(int(q.Partition)))
		out[kafka.CommitKey{Topic: q.Topic, Partition: q.Partition, Offset: q.Committed}] = kafka.RecordTime{Offset: q.Committed, Timestamp: p.clock.Now().Add(-p.age)}
	}
	p.asked = append(p.asked, asked)
	return out, nil
}

func (p *readingPoller) Asked() [][]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]string(nil), p.asked...)
}

// TestExactTimeLagReadsInACmd: x on the group screen reads the records of
// the rows on screen in a Cmd, never in Update, and the rows then show the
// exact time lag. The root has read invoices/1 by itself already (its
// commit is older than every poll), so x reads the other three.
func TestExactTimeLagReadsInACmd(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	rp := &readingPoller{seqPoller: h.p, age: 100 * time.Second}
	h.m.poll.poller = rp
	h.warm()
	h.press("j", "enter") // billing-reconciler: every partition lags
	before := len(rp.Asked())
	if got := rp.Asked()[before-1]; strings.Join(got, " ") != "invoices/1" {
		t.Fatalf("the root's last read: %v", got)
	}
	cmd := h.send(keyMsg("x"))
	if got := rp.Asked(); len(got) != before {
		t.Fatalf("Update read records itself: %v", got[before:])
	}
	h.run(cmd)
	if got := rp.Asked()[before:]; len(got) != 1 || strings.Join(got[0], " ") != "invoices/0 invoices/2 invoices/3" {
		t.Fatalf("read %v", got)
	}
	// The records were stamped at the time of the read: the clock is 3s
	// past the poll the time lags are measured at.
	v := h.view()
	if got := lines(v)[6]; got != "[Partitions 4]  Members 2   Chart   Timeline   Simulate   Diagnosis   exact time lag" {
		t.Fatalf("tab bar %q", got)
	}
	if got := lines(v)[8]; !strings.HasPrefix(got, "▶ invoices    0     15395      1200   15505 110   =1m37s ") {
		t.Fatalf("first row %q", got)
	}
}

// TestExactTimeLagWithoutAReader: a poller that cannot read records makes
// exact mode say so.
func TestExactTimeLagWithoutAReader(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	h.warm()
	h.press("j", "enter", "x")
	if got := lines(h.view())[6]; got != "[Partitions 4]  Members 2   Chart   Timeline   Simulate   Diagnosis   exact time lag failed: this connection cannot rea…" {
		t.Fatalf("tab bar %q", got)
	}
	if g, ok := h.m.top().(interface{ Exact() bool }); !ok || g.Exact() {
		t.Fatal("exact mode stayed on")
	}
}

// TestTimestampRepliesReachEveryScreen: a reply reaches the screen that
// asked even when another screen is on top (the help here).
func TestTimestampRepliesReachEveryScreen(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	h.warm()
	h.press("j", "enter")
	req := h.send(keyMsg("x"))().(ui.TimestampsRequestMsg)
	read := h.send(req) // the root turns the request into a read
	h.press("?")
	h.run(read)
	h.press("?")
	if got := lines(h.view())[6]; !strings.Contains(got, "exact time lag failed: this connection cannot rea…") {
		t.Fatalf("the reply did not reach the group screen under the help: %q", got)
	}
}

// TestRootReadsExactTimeLags: after each poll the root reads, in a Cmd, the
// records at the commits older than every poll, with no key pressed; the
// groups list, the group's header and its rows then show the same exact
// time lag.
func TestRootReadsExactTimeLags(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	rp := &readingPoller{seqPoller: h.p, age: 100 * time.Second}
	h.m.poll.poller = rp
	h.warm()
	asked := rp.Asked()
	// The first poll: every lagging commit is older than it
	// (fraud-scoring's payments/* are caught up at the first poll).
	if got := strings.Join(asked[0], " "); got != "audit-log/0 audit-log/1 invoices/1 orders/2 orders/4 orders/0 stock/1 stock/2" {
		t.Fatalf("first read %s", got)
	}
	row := func(v, prefix string) string {
		for _, l := range lines(v) {
			if strings.HasPrefix(strings.TrimLeft(l, "▶ "), prefix) {
				return l
			}
		}
		t.Fatalf("no %q in\n%s", prefix, v)
		return ""
	}
	// invoices/1 was read right after the last poll (the clock had not
	// moved): its record was written 100s before that poll.
	if got := row(h.view(), "billing-reconciler"); !strings.Contains(got, " =1m40s ") {
		t.Errorf("groups row %q, want =1m40s", got)
	}
	h.press("j", "enter")
	v := h.view()
	if got := row(v, "health "); !strings.Contains(got, "time lag =1m40s") {
		t.Errorf("header %q, want time lag =1m40s", got)
	}
	if got := row(v, "invoices    1"); !strings.Contains(got, " =1m40s ") {
		t.Errorf("row %q, want =1m40s", got)
	}
}

// TestExactReadAfterASwitchIsDropped: the answer of an exact read started
// before a `:ctx` switch reaches no tracker: the new context's verdicts
// stay as its own polls made them.
func TestExactReadAfterASwitchIsDropped(t *testing.T) {
	prod := &readingPoller{seqPoller: &seqPoller{steps: trendSteps()}, age: time.Hour}
	staging := &readingPoller{seqPoller: &seqPoller{steps: trendSteps()}, age: time.Minute}
	h := newHarness(t, 120, 40, Options{
		Poller:   prod,
		Contexts: []string{"prod", "staging"},
		Switch: func(context.Context, string) (Poller, ContextInfo, error) {
			return staging, ContextInfo{Name: "staging"}, nil
		},
	})
	prod.clock, staging.clock = h.clock, h.clock
	// A prod poll whose exact read is still out when the switch lands.
	var stale tea.Msg
	var walk func(tea.Cmd)
	walk = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				walk(c)
			}
		case judgedMsg:
			walk(h.send(msg)) // the poll judged: its answer starts the read
		case exactReadMsg:
			stale = msg
		}
	}
	walk(h.send(h.m.startPoll()()))
	if stale == nil {
		t.Fatal("the prod poll started no exact read")
	}
	h.press(":")
	h.typeText("ctx staging")
	connect := h.send(keyMsg("enter"))
	h.run(h.send(connect()))
	want := lag.TimeLag{Seconds: 60, Kind: lag.TimeLagExact}
	if got := h.m.lag.Named("billing-reconciler").MaxTimeLag; got != want {
		t.Fatalf("staging's own read: %+v, want %+v", got, want)
	}
	if cmd := h.send(stale); cmd != nil {
		t.Error("the stale read made a command")
	}
	if got := h.m.lag.Named("billing-reconciler").MaxTimeLag; got != want {
		t.Errorf("after prod's late read: %+v, want %+v", got, want)
	}
}
