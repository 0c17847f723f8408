package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/screens/record"
	"github.com/kgroups/kgroups/views/ui"
)

// peekingPoller polls like seqPoller and serves record reads from a fixed
// log: every partition holds offsets 0..9 but 4 (compacted away), the
// group's commit is 5, record i has key order-i and is stamped recordBase +
// i seconds; even records are JSON, 7 is binary, the others text.
type peekingPoller struct {
	*seqPoller
	mu    sync.Mutex
	asked []kafka.PeekRequest
	// atEnd puts the group's committed offset at the log end (10), not 5.
	atEnd bool
}

var recordBase = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

func peekRecord(o int64) kafka.PeekRecord {
	r := kafka.PeekRecord{Offset: o, Timestamp: recordBase.Add(time.Duration(o) * time.Second), Key: fmt.Appendf(nil, "order-%d", o)}
	switch {
	case o == 7:
		r.Value = []byte{0xde, 0xad, 0xbe, 0xef, 0x1b, 'A'}
	case o%2 == 0:
		r.Value = fmt.Appendf(nil, `{"order":%d,"total":12.5,"items":["a","b"]}`, o)
	default:
		r.Value = fmt.Appendf(nil, "order %d shipped \x1b[2J to \u202eevil", o)
	}
	r.Headers = []kafka.Header{{Key: "trace", Value: []byte("t-1")}}
	r.Size = len(r.Key) + len(r.Value) + 8
	return r
}

func (p *peekingPoller) Peek(_ context.Context, req kafka.PeekRequest) (kafka.PeekResult, error) {
	p.mu.Lock()
	p.asked = append(p.asked, req)
	p.mu.Unlock()
	const logEnd = 10
	committed := int64(5)
	if p.atEnd {
		committed = logEnd
	}
	res := kafka.PeekResult{Group: req.Group, Topic: req.Topic}
	for _, part := range req.Partitions {
		pp := kafka.PeekPartition{Topic: req.Topic, Partition: part, Committed: committed, Start: req.Offset, LogStart: 0, LogEnd: logEnd, LastStable: logEnd}
		if req.Offset == kafka.OffsetNext {
			pp.Start = committed
		}
		if pp.Start >= logEnd {
			pp.Err = &kafka.PastLogEndError{Offset: pp.Start, LogEnd: logEnd}
		}
		for o := pp.Start; o < logEnd && len(pp.Records) < req.Count; o++ {
			if o != 4 {
				pp.Records = append(pp.Records, peekRecord(o))
			}
		}
		if len(pp.Records) > 0 && pp.Records[0].Offset > pp.Start {
			pp.Err = &kafka.NoRecordAtError{Offset: pp.Start, Next: pp.Records[0].Offset}
		}
		res.Partitions = append(res.Partitions, pp)
	}
	return res, nil
}

func (p *peekingPoller) Asked() []kafka.PeekRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]kafka.PeekRequest(nil), p.asked...)
}

func recordHarness(t *testing.T, w, h int) (*harness, *peekingPoller) {
	t.Helper()
	hs := newHarness(t, w, h, Options{}, trendSteps()...)
	pp := &peekingPoller{seqPoller: hs.p}
	hs.m.poll.poller = pp
	hs.warm()
	hs.press("j", "enter")
	return hs, pp
}

// TestRecordViewerOpensFromPartitions: v on the Partitions tab asks the root
// for the viewer on the partition under the cursor at the committed offset;
// the viewer reads in a Cmd, never in Update; n and N step through the
// records (over the compacted offset 4), f and w toggle, Esc goes back.
func TestRecordViewerOpensFromPartitions(t *testing.T) {
	h, pp := recordHarness(t, 120, 40)
	cmd := h.send(keyMsg("v"))
	if len(pp.Asked()) != 0 {
		t.Fatal("v read a record in Update")
	}
	open, ok := cmd().(ui.OpenRecordMsg)
	if !ok || open != (ui.OpenRecordMsg{Group: "billing-reconciler", Topic: "invoices", Partition: 0, Offset: -1}) {
		t.Fatalf("v sent %#v", open)
	}
	read := h.send(open)
	v, ok := h.m.top().(*record.Model)
	if !ok {
		t.Fatalf("top is %T, want the record viewer", h.m.top())
	}
	if len(pp.Asked()) != 0 {
		t.Fatal("opening the viewer read in Update")
	}
	if !strings.Contains(h.view(), "reading the record…") {
		t.Errorf("no reading mark:\n%s", h.view())
	}
	h.run(read)
	if got := pp.Asked(); len(got) != 1 || got[0].Offset != kafka.OffsetNext || got[0].Count != 1 || got[0].Group != "billing-reconciler" {
		t.Fatalf("asked %+v", got)
	}
	if v.Target() != open {
		t.Errorf("target %+v", v.Target())
	}
	shows := func(what string, want ...string) {
		t.Helper()
		view := h.view()
		for _, w := range want {
			if !strings.Contains(view, w) {
				t.Errorf("%s: no %q in\n%s", what, w, view)
			}
		}
		if strings.ContainsAny(view, "\x1b\u202e") {
			t.Errorf("%s: raw escape or bidi bytes on screen: %q", what, view)
		}
	}
	shows("opened", "offset       5", "the record at the group's committed offset", `order 5 shipped \x1b[2J to \u202eevil`, "value        text, 31 bytes")
	h.press("n")
	shows("next", "offset       6", `  "order": 6,`, "value        json, 42 bytes")
	h.press("N", "N")
	shows("previous over the gap", "offset       3", "key          order-3")
	h.press("n")
	shows("next over the gap", "offset       5", "no record is stored at offset 4 (deleted by compaction); the next record is at offset 5")
	h.press("n", "n")
	shows("binary", "offset       7", "value        hex, 6 bytes", "00000000  de ad be ef 1b 41")
	h.press("f")
	shows("forced text", "log 0..10 · text,", "value        hex, 6 bytes (not UTF-8 text)")
	h.press("f", "f")
	shows("forced hex", "log 0..10 · hex,")
	h.press("n", "n", "n")
	shows("past the end keeps the record", "offset       9", "offset 10 is the log end: no record has been written there yet")
	h.press("w")
	if strings.Contains(h.view(), ", wrap") {
		t.Error("w did not turn wrapping off")
	}
	h.press("esc")
	if _, ok := h.m.top().(*record.Model); ok {
		t.Fatal("esc did not go back")
	}
}

// TestRecordViewerStepsBackFromTheLogEnd: a group that consumed
// everything has no record at its committed offset; N shows the last
// record written, and N again the one before.
func TestRecordViewerStepsBackFromTheLogEnd(t *testing.T) {
	h, pp := recordHarness(t, 120, 40)
	pp.atEnd = true
	h.run(h.send(h.send(keyMsg("v"))().(ui.OpenRecordMsg)))
	if !strings.Contains(h.view(), "offset 10 is the log end") {
		t.Fatalf("opened at the log end:\n%s", h.view())
	}
	h.press("N")
	if v := h.view(); !strings.Contains(v, "offset       9") || !strings.Contains(v, "key          order-9") {
		t.Fatalf("N at the log end:\n%s", v)
	}
	h.press("N")
	if v := h.view(); !strings.Contains(v, "offset       8") {
		t.Fatalf("N again:\n%s", v)
	}
}

// TestRecordViewerAnswerAfterCloseIsDropped: a read that answers after the
// viewer closed reaches no screen.
func TestRecordViewerAnswerAfterCloseIsDropped(t *testing.T) {
	h, _ := recordHarness(t, 120, 40)
	read := h.send(ui.OpenRecordMsg{Group: "billing-reconciler", Topic: "invoices", Partition: 1, Offset: 2})
	req := read().(ui.Request)
	h.send(req)
	h.press("esc")
	before := h.view()
	h.send(req.Run())
	if h.view() != before {
		t.Error("a late answer changed the screen")
	}
}

// TestGoldenRecord is the viewer at 80x24 and 120x40: a text record with
// hostile bytes, a JSON one and a binary one.
func TestGoldenRecord(t *testing.T) {
	screens := []struct {
		name string
		keys []string
	}{
		{"record", nil},
		{"record_json", []string{"n"}},
		{"record_hex", []string{"n", "n"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, sc := range screens {
			t.Run(sc.name+"_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
				h, _ := recordHarness(t, size[0], size[1])
				h.press("v")
				h.press(sc.keys...)
				golden.RequireEqual(t, []byte(h.view()))
			})
		}
	}
}

// TestGroupFooterAndHelpListView: the Partitions tab's footer and the help
// list v.
func TestGroupFooterAndHelpListView(t *testing.T) {
	h, _ := recordHarness(t, 120, 40)
	if !strings.Contains(h.view(), "v view") {
		t.Errorf("footer without v:\n%s", h.view())
	}
	h.press("?")
	if !strings.Contains(h.view(), "view the record at the committed offset") {
		t.Errorf("help without v:\n%s", h.view())
	}
}
