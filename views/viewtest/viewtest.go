// Package viewtest holds what the screen tests share: the fixed cluster of
// kafka/fixture (a snapshot covering every kind of group, large snapshots
// for benchmarks), the common context a screen is built with, and ANSI
// stripping.
package viewtest

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/views/ui"
)

// Epoch is the fixed time of the fixture's first poll.
var Epoch = fixture.Epoch

// Brokers are the fixture cluster's brokers.
var Brokers = fixture.Brokers

// Part builds a partition; committed or logEnd may be kafka.NoOffset.
func Part(topic string, p int32, committed, logStart, logEnd int64, owner *kafka.Member) kafka.PartitionOffsets {
	return fixture.Part(topic, p, committed, logStart, logEnd, owner)
}

// Member builds a member owning the given partitions of topic.
func Member(id, instance, client, host string, topic string, parts ...int32) kafka.Member {
	return fixture.Member(id, instance, client, host, topic, parts...)
}

// Snapshot is fixture.Snapshot: the fixture cluster as polled at t, every
// log end moved on by lagBump.
func Snapshot(t time.Time, lagBump int64) *kafka.Snapshot { return fixture.Snapshot(t, lagBump) }

// ManyGroups is fixture.ManyGroups: n groups of four partitions.
func ManyGroups(n int) *kafka.Snapshot { return fixture.ManyGroups(n) }

// BigGroup is fixture.BigGroup: one group of n partitions.
func BigGroup(n int) *kafka.Snapshot { return fixture.BigGroup(n) }

// History is a fixed lag history: the series per group name.
type History map[string][]int64

// GroupLagSeries implements ui.LagHistory.
func (h History) GroupLagSeries(group string, dst []int64) []int64 {
	return append(dst, h[group]...)
}

// Common is a screen context for tests, built by ui.NewCommon as the root
// builds the real one: styles from lipgloss's default renderer (set its
// colour profile to termenv.Ascii for plain text), the given glyphs and a
// fixed clock, sized width x height.
func Common(width, height int, utf8 bool) ui.Common {
	c := ui.NewCommon(lipgloss.DefaultRenderer(), true, utf8, func() time.Time { return Epoch })
	c.SetSize(width, height)
	return c
}

// Do runs cmd as the root would, for a screen's request: the request's work
// is run and its answer returned. Any other message is returned as it is,
// and nil for a nil cmd.
func Do(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if req, ok := msg.(ui.Request); ok {
		return req.Run()
	}
	return msg
}

// Strip removes escape sequences and trailing blanks of every line, so
// tests compare what a user reads.
func Strip(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
