package tui

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"weak"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/screens/record"
	"github.com/kgroups/kgroups/views/ui"
)

// nestedPoller serves one record whose value is 9,999 nested arrays
// (19,998 bytes), the value that once took 10.8 s and 669 MB to draw.
type nestedPoller struct{ *seqPoller }

func nestedValue() []byte { return []byte(strings.Repeat("[", 9999) + strings.Repeat("]", 9999)) }

func (p *nestedPoller) Peek(_ context.Context, req kafka.PeekRequest) (kafka.PeekResult, error) {
	v := nestedValue()
	return kafka.PeekResult{Group: req.Group, Topic: req.Topic, Partitions: []kafka.PeekPartition{{
		Topic: req.Topic, Partition: req.Partitions[0], Committed: 3, Start: 3, LogEnd: 9,
		Records: []kafka.PeekRecord{{Offset: 3, Key: []byte("k\x1b]0;x\x07"), Value: v, Size: len(v) + 8}},
	}}}, nil
}

// TestRecordViewerLaysOutLargeRecordsOffTheLoop: the 19,998-byte record is
// laid out in a Cmd; until its answer arrives the viewer says so and keys
// are answered (? opens the help, Esc closes it); the answer shows the
// bounded rendering; leaving the viewer lets go of it.
func TestRecordViewerLaysOutLargeRecordsOffTheLoop(t *testing.T) {
	h := newHarness(t, 100, 30, Options{}, trendSteps()...)
	h.m.poll.poller = &nestedPoller{seqPoller: h.p}
	h.warm()
	read := h.request(h.send(ui.OpenRecordMsg{Group: "g", Topic: "t", Partition: 0, Offset: 3}))
	v, ok := h.m.top().(*record.Model)
	if !ok {
		t.Fatalf("top is %T", h.m.top())
	}
	layout := h.send(read()) // the read's answer starts the layout
	if layout == nil {
		t.Fatal("a 19,998-byte record was laid out on the UI loop")
	}
	if body := h.view(); !strings.Contains(body, "laying out the record (20005 bytes)…") {
		t.Fatalf("no note while laying out:\n%s", body)
	}
	h.press("?")
	if !h.m.helpOpen() {
		t.Fatalf("? was not answered while the record was laid out:\n%s", h.view())
	}
	h.press("esc")
	if h.m.top() != v {
		t.Fatalf("esc did not go back to the viewer: %T", h.m.top())
	}
	h.run(layout)
	body := h.view()
	if !strings.Contains(body, "value        json, 19998 bytes") || !strings.Contains(body, "key          k\\x1b]0;x\\x07") {
		t.Fatalf("the record is not on show:\n%s", body)
	}
	for _, k := range []string{"G"} {
		h.press(k)
	}
	body = h.view()
	if !strings.Contains(body, "\n    ]\n  ]\n  … elided: 1 container nested deeper than 32 levels (19934 bytes)\n") {
		t.Fatalf("the end of the bounded rendering is not on show:\n%s", body)
	}

	// Leaving the viewer drops every reference to it: the stack's array
	// and the requests in flight no longer hold it.
	w := weak.Make(v) // v is not used after this
	h.press("esc")
	if _, still := h.m.top().(*record.Model); still {
		t.Fatal("esc did not leave the viewer")
	}
	for i, c := range h.m.stack[len(h.m.stack):cap(h.m.stack)] {
		if c != nil {
			t.Fatalf("the stack's array still holds %T past its end (slot %d)", c, len(h.m.stack)+i)
		}
	}
	for range 3 {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("the viewer (and its record) is still reachable after leaving it")
	}
}

// TestRecordViewerResizeLaysOutAgain: a resize lays a large record out
// again for the new width, off the loop.
func TestRecordViewerResizeLaysOutAgain(t *testing.T) {
	h := newHarness(t, 100, 30, Options{}, trendSteps()...)
	h.m.poll.poller = &nestedPoller{seqPoller: h.p}
	h.warm()
	read := h.request(h.send(ui.OpenRecordMsg{Group: "g", Topic: "t", Partition: 0, Offset: 3}))
	h.run(h.send(read()))
	cmd := h.send(tea.WindowSizeMsg{Width: 60, Height: 30})
	if cmd == nil {
		t.Fatal("a resize asked for no new layout")
	}
	if body := h.view(); !strings.Contains(body, "laying out the record") {
		t.Fatalf("no note while laying out again:\n%s", body)
	}
	h.run(cmd)
	if body := h.view(); !strings.Contains(body, "value        json, 19998 bytes") {
		t.Fatalf("after the resize:\n%s", body)
	}
}
