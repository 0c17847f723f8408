package tui

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// warmPolls is how many polls of viewtest.Evolving the screens are shown
// after: more than the health window, so every verdict shows.
const warmPolls = 12

// trendSteps are the polls of viewtest.Evolving, one per step.
func trendSteps() []func(time.Time) (*kafka.Snapshot, error) {
	var steps []func(time.Time) (*kafka.Snapshot, error)
	for i := range warmPolls {
		steps = append(steps, func(time.Time) (*kafka.Snapshot, error) { return viewtest.Evolving(i), nil })
	}
	return steps
}

// warm runs every trend poll, viewtest.PollEvery apart as the snapshots
// are stamped, and leaves the clock 3s after the last one.
func (h *harness) warm() {
	h.t.Helper()
	for range warmPolls {
		h.poll()
		h.clock.Advance(viewtest.PollEvery)
	}
	h.clock.Advance(-2 * time.Second)
	h.send(clockMsg{})
}

func TestGolden(t *testing.T) {
	type screen struct {
		name string
		keys []string
	}
	screens := []screen{
		{"groups", nil},
		{"groups_sorted_by_lag", []string{"L"}},
		{"groups_sorted_by_health", []string{"H"}},
		{"groups_filtered", []string{"/", "o", "r", "enter"}},
		{"group_partitions", []string{"j", "j", "j", "j", "j", "enter"}},                                            // orders-app: catching up
		{"group_rewind", []string{"j", "j", "j", "enter"}},                                                          // inventory-sync
		{"group_members_kip848", []string{"j", "j", "j", "enter", "tab"}},                                           // inventory-sync
		{"group_chart", []string{"j", "j", "j", "j", "j", "enter", "tab", "tab"}},                                   // orders-app
		{"group_partition_chart", []string{"j", "enter", "j", "c"}},                                                 // billing-reconciler invoices/1
		{"group_error", []string{"G", "enter"}},                                                                     // shipping-notifier
		{"group_partitions_filtered", []string{"j", "j", "j", "j", "j", "enter", "/", "2", "d", "9", "3", "enter"}}, // orders-app, one member's
		{"group_members_filtering", []string{"j", "j", "j", "j", "j", "enter", "tab", "/", "2", ".", "1", "6"}},     // orders-app, by host
		{"group_simulate", []string{"j", "j", "j", "j", "j", "enter", "shift+tab", "shift+tab"}},                    // orders-app
		{"group_diagnosis", []string{"j", "j", "j", "j", "j", "enter", "shift+tab"}},                                // orders-app
		{"help", []string{"?"}},
		{"help_group_members", []string{"j", "j", "j", "j", "j", "enter", "tab", "?"}}, // orders-app
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, sc := range screens {
			name := sc.name + "_" + itoa(size[0]) + "x" + itoa(size[1])
			t.Run(name, func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Options{}, trendSteps()...)
				h.warm()
				h.press(sc.keys...)
				golden.RequireEqual(t, []byte(h.view()))
			})
		}
	}
}

// TestGoldenASCII is the groups and group screens on a terminal whose locale
// is not UTF-8.
func TestGoldenASCII(t *testing.T) {
	for _, sc := range []struct {
		name string
		keys []string
	}{
		{"groups", nil}, {"group", []string{"j", "j", "j", "j", "j", "enter"}},
		{"chart", []string{"j", "enter", "j", "c"}}, {"help", []string{"?"}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			h := newHarness(t, 80, 24, Options{Getenv: func(k string) string {
				if k == "LANG" {
					return "C"
				}
				return ""
			}}, trendSteps()...)
			h.warm()
			h.press(sc.keys...)
			v := h.view()
			for i, r := range v {
				if r >= 0x80 {
					t.Fatalf("non-ASCII %q at byte %d in:\n%s", r, i, v)
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestGoldenSimulate is the Simulate tab after a member leaves, at both
// sizes: members named by client id and the end of their member id, the
// line saying what was simulated whole.
func TestGoldenSimulate(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Options{}, rebalancing(0))
			h.poll()
			h.press("j", "j", "j", "j", "j", "enter", "shift+tab", "shift+tab", "j", "l")
			golden.RequireEqual(t, []byte(h.view()))
		})
	}
}
