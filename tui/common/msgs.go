package common

import "github.com/kgroups/kgroups/kafka"

// LagHistory is what screens read from the lag history: a group's total lag
// per poll, oldest first. It is an interface so that screens render from any
// history (the real one, or a fixture in tests).
type LagHistory interface {
	GroupLagSeries(group string, dst []int64) []int64
}

// DataMsg delivers a new poll result to every screen on the stack. Snapshot
// is never nil; it and History are shared and must not be modified.
type DataMsg struct {
	Snapshot *kafka.Snapshot
	History  LagHistory
}

// OpenGroupMsg asks the root to open the group screen for Name.
type OpenGroupMsg struct{ Name string }

// SelectGroupMsg asks the groups screen to move its cursor to Name, so that
// going back from a group opened by name lands on it.
type SelectGroupMsg struct{ Name string }

// FlashMsg shows a short message in the footer until the next key press.
type FlashMsg struct {
	Text  string
	Error bool
}
