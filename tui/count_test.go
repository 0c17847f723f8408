package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestOneBrokerOneGroupAreSingular: the status line and the groups
// screen's count line say "1 broker" and "1 group" on a cluster with one
// of each.
func TestOneBrokerOneGroupAreSingular(t *testing.T) {
	one := func(time.Time) (*kafka.Snapshot, error) {
		s := viewtest.Evolving(0)
		s.Brokers = s.Brokers[:1]
		s.Groups = s.Groups[:1]
		return s, nil
	}
	h := newHarness(t, 120, 24, Options{}, one)
	h.poll()
	lines := strings.Split(h.view(), "\n")
	if !strings.HasPrefix(lines[1], "● connected · 1 broker · refreshed") {
		t.Errorf("status line %q, want it to count 1 broker", lines[1])
	}
	if !strings.HasPrefix(lines[2], "1 group: ") {
		t.Errorf("count line %q, want 1 group", lines[2])
	}
}
