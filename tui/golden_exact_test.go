package tui

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenExact is the groups list and billing-reconciler's screens when
// the connection reads records: every record was written 100s before the
// read. The commits older than every poll show "=" without a key; the
// group's header, its rows, its chart and the list agree.
func TestGoldenExact(t *testing.T) {
	screens := []struct {
		name string
		keys []string
	}{
		{"groups", nil},
		{"group", []string{"j", "enter"}},
		{"group_chart", []string{"j", "enter", "tab", "tab"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, sc := range screens {
			t.Run(sc.name+"_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Options{}, trendSteps()...)
				h.m.poll.poller = &readingPoller{seqPoller: h.p, age: 100 * time.Second}
				h.warm()
				h.press(sc.keys...)
				golden.RequireEqual(t, []byte(h.view()))
			})
		}
	}
}
