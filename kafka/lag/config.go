package lag

import "time"

// Config holds every window and threshold the history and the health rules
// use, so that `kgroups health` and the TUI can expose them and tests can
// pin them. The zero value of a field means "use the default"; see
// DefaultConfig.
type Config struct {
	// Window is W, the number of commit observations the health rules look
	// at (Burrow's default is 10). A commit observation is a poll that saw
	// a new committed offset, or a poll that saw the same offset again at
	// least MinDistance after the previous observation while a live member
	// owned the partition (see the package documentation).
	Window int
	// MinDistance is how long a committed offset must stay unchanged under
	// a live owner before the same offset counts as another observation.
	// Polling cannot see a consumer re-commit the same offset, so this
	// stands in for the periodic re-commit of a live consumer; 5s matches
	// the auto-commit interval of the Java client and franz-go. Set 1ns to
	// count every poll.
	MinDistance time.Duration
	// Samples is how many polls of (committed, log-end) each partition and
	// the total lag of each group keep: the length of lag charts and
	// sparklines.
	Samples int
	// TimePoints is how many (log-end offset, time) points each partition
	// keeps for time-lag interpolation. Flat runs are compressed to their
	// first and last point, so the table can span much longer than Samples
	// polls when a partition is idle.
	TimePoints int
	// RatePolls is how many of the latest polls produce and consume rates
	// are measured over (at most Samples).
	RatePolls int
	// EvictAfter is how many consecutive polls a group or partition may be
	// missing from snapshots before its history is dropped. Short gaps (a
	// coordinator that did not answer one poll) keep the history; longer
	// ones free its memory.
	EvictAfter int
	// Hold is how many polls in a row the rules must give a partition a
	// new status before it is reported (see hold.go): 0 means a third of
	// Window, at least 2.
	Hold int
	// RhythmCeiling is how long a commit may stand under a live member,
	// or after one commit without members, before it is STALL (or STOP)
	// when the consumer has shown no rhythm of its own or through its
	// group (rhythm.go): until then the verdict waits (JUDGING). Under a
	// live member or a simple group's job, it waits UnseenRhythms
	// ceilings. 0 means the RhythmCeiling constant, 5 minutes.
	RhythmCeiling time.Duration
	// EventHold is how long an event the rules found (a REWIND: an
	// offset moved back) is reported after the poll that saw it, before
	// the verdict follows the partition's state again: 0 means the
	// window's span in time, (Window-1) x the longer of MinDistance and
	// the polls' interval, and at least the floor.
	// `kgroups health` holds it for its whole sampling window.
	EventHold time.Duration
}

// DefaultConfig returns the defaults: W=10 commit observations, 5s minimum
// distance between repeated observations, 60 samples, 60 time points, rates
// over 10 polls, eviction after 5 missing polls, a status change held for
// 4 polls.
func DefaultConfig() Config {
	return Config{
		Window:        10,
		MinDistance:   5 * time.Second,
		Samples:       60,
		TimePoints:    60,
		RatePolls:     10,
		EvictAfter:    5,
		Hold:          holdPolls(10),
		RhythmCeiling: RhythmCeiling,
	}
}

// maxRing bounds Window and TimePoints, whose rings (one slot more than
// they hold) a partition indexes in 16 bits.
const maxRing = 1<<15 - 1

// normalize replaces zero or out-of-range fields with usable values so that
// a History never divides by zero or indexes an empty ring.
func (c Config) normalize() Config {
	d := DefaultConfig()
	if c.Window <= 0 {
		c.Window = d.Window
	}
	if c.Window < 2 {
		c.Window = 2
	}
	if c.MinDistance <= 0 {
		c.MinDistance = d.MinDistance
	}
	if c.Samples <= 0 {
		c.Samples = d.Samples
	}
	if c.Samples < 2 {
		c.Samples = 2
	}
	if c.TimePoints <= 0 {
		c.TimePoints = d.TimePoints
	}
	if c.TimePoints < 2 {
		c.TimePoints = 2
	}
	c.Window = min(c.Window, maxRing)
	c.TimePoints = min(c.TimePoints, maxRing)
	if c.RatePolls <= 0 {
		c.RatePolls = d.RatePolls
	}
	if c.RatePolls < 2 {
		c.RatePolls = 2
	}
	if c.RatePolls > c.Samples {
		c.RatePolls = c.Samples
	}
	if c.EvictAfter <= 0 {
		c.EvictAfter = d.EvictAfter
	}
	if c.Hold <= 0 {
		c.Hold = holdPolls(c.Window)
	}
	c.Hold = min(c.Hold, c.Window, 255)
	if c.RhythmCeiling <= 0 {
		c.RhythmCeiling = d.RhythmCeiling
	}
	return c
}
