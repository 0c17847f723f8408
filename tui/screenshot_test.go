package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// screenshotCols is the width .ci/screenshot captures the demo at.
const screenshotCols = 120

// TestScreenshotsShowTheCurrentUI holds the pictures in docs/images to
// the UI. .ci/screenshot (make screenshot) renders them from captures of
// `kgroups demo` and commits the captures beside them as text (tui.txt,
// group.txt). The demo's numbers differ on every run, but what the UI
// draws around them does not: the labels of the header and status lines,
// the group screen's header with its leader label, the column titles, the
// tab bar and the footer. This renders the same screens at the captures'
// size from the golden fixture (with orders-app's members sending
// franz-go's join metadata, as the demo's do) and fails when one of them
// differs from the capture: run make screenshot and commit what it writes.
func TestScreenshotsShowTheCurrentUI(t *testing.T) {
	groups := readCapture(t, "tui.txt")
	group := readCapture(t, "group.txt")

	var steps []func(time.Time) (*kafka.Snapshot, error)
	for i := range warmPolls {
		steps = append(steps, func(time.Time) (*kafka.Snapshot, error) {
			return franzGoMembers(viewtest.Evolving(i), "orders-app"), nil
		})
	}
	h := newHarness(t, screenshotCols, len(groups), Options{}, steps...)
	h.warm()
	ui := strings.Split(h.view(), "\n")
	compareScreen(t, "tui.txt (the groups screen)", groups, ui, []lineCheck{
		{"header", 0, skeleton},
		{"status line", 1, skeleton},
		{"column titles", 3, titles},
		{"footer", -1, exact},
	})

	h.press("j", "j", "j", "j", "j", "enter") // orders-app
	ui = strings.Split(h.view(), "\n")
	compareScreen(t, "group.txt (the group screen)", group, ui, []lineCheck{
		{"header", 0, skeleton},
		{"status line", 1, skeleton},
		{"group line", 2, groupLine},
		{"health line", 4, skeleton},
		{"coordinator line", 5, skeleton},
		{"tab bar", tabBar, digits},
		{"column titles", tabBar + 1, titles},
		{"footer", -1, exact},
	})
}

// tabBar stands for the line that starts with "[", the tab bar.
const tabBar = -100

// lineCheck compares one line of a capture with the UI's: at index
// (negative from the end; tabBar for the tab bar, tabBar+1 for the line
// after it), through norm.
type lineCheck struct {
	what  string
	index int
	norm  func(string) string
}

func readCapture(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("../docs/images/" + name)
	if err != nil {
		t.Fatalf("%v: the screenshots' captures are written by make screenshot", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > screenshotCols {
			t.Fatalf("%s line %d is %d cells wide; .ci/screenshot captures %d", name, i+1, w, screenshotCols)
		}
	}
	return lines
}

func compareScreen(t *testing.T, name string, capture, ui []string, checks []lineCheck) {
	t.Helper()
	if len(capture) != len(ui) {
		t.Errorf("%s: %d lines, the UI draws %d at %dx%d", name, len(capture), len(ui), screenshotCols, len(capture))
	}
	at := func(lines []string, i int) string {
		switch {
		case i <= tabBar+1:
			for j, l := range lines {
				if strings.HasPrefix(l, "[") {
					if j+i-tabBar < len(lines) {
						return lines[j+i-tabBar]
					}
				}
			}
			return ""
		case i < 0:
			i += len(lines)
		}
		if i < 0 || i >= len(lines) {
			return ""
		}
		return lines[i]
	}
	for _, c := range checks {
		got, want := c.norm(strings.TrimRight(at(capture, c.index), " ")), c.norm(strings.TrimRight(at(ui, c.index), " "))
		if got != want {
			t.Errorf("%s: the picture's %s differs from the UI's (run make screenshot):\n picture: %q\n      UI: %q", name, c.what, got, want)
		}
	}
}

func exact(s string) string { return s }

// titles is a table's column titles, without the spacing their widths
// make.
func titles(s string) string { return strings.Join(strings.Fields(s), " ") }

var number = regexp.MustCompile(`[0-9]+`)

// digits is s with every number as #.
func digits(s string) string { return number.ReplaceAllString(s, "#") }

// skeleton is the labels of a line of " · " fields: each field's first
// word, numbers as #, and the catch-up phrase as one word, whichever way
// the consumer is going.
func skeleton(s string) string {
	fields := strings.Split(s, " · ")
	for i, f := range fields {
		w, _, _ := strings.Cut(strings.TrimSpace(f), " ")
		switch w = digits(w); w {
		case "falling", "catching", "keeping":
			w = "catch-up"
		}
		fields[i] = w
	}
	return strings.Join(fields, " · ")
}

var assignor = regexp.MustCompile(`assignor \S+`)

// groupLine is the group screen's first line (name · state · type ·
// assignor and leader) with the group's own values left out.
func groupLine(s string) string {
	fields := strings.Split(s, " · ")
	if len(fields) < 4 {
		return s
	}
	return "NAME · STATE · TYPE · " + assignor.ReplaceAllString(strings.Join(fields[3:], " · "), "assignor ASSIGNOR")
}

// franzGoMembers gives the members of group in s the join metadata
// franz-go sends with the group's assignor, so that the group screen
// names the leader's implementation as it does for the demo's groups.
func franzGoMembers(s *kafka.Snapshot, group string) *kafka.Snapshot {
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Name != group {
			continue
		}
		var b kgo.GroupBalancer
		switch g.Assignor {
		case "range":
			b = kgo.RangeBalancer()
		case "roundrobin":
			b = kgo.RoundRobinBalancer()
		case "sticky":
			b = kgo.StickyBalancer()
		default:
			b = kgo.CooperativeStickyBalancer()
		}
		for j := range g.Members {
			m := &g.Members[j]
			var topics []string
			for _, a := range m.Assignment {
				topics = append(topics, a.Topic)
			}
			m.JoinMetadata = b.JoinGroupMetadata(topics, nil, 3)
		}
	}
	return s
}
