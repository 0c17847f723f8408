package lag

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// runReset polls every poll seconds, for an hour, a consumer that
// commits every second on a topic written at 10 records a second; at
// 1,000 s it is reset 10,000 records back (1,000 s of records) and reads
// 20 a second from there. It returns the partition's status at each poll, by second.
func runReset(t *testing.T, cfg Config, poll int) map[int]PartitionHealth {
	t.Helper()
	h := NewHistory(cfg)
	var end, c int64 = 100000, 100000
	got := map[int]PartitionHealth{}
	for sec := 1; sec <= 3600; sec++ {
		resetStep(sec, &c, &end)
		if sec%poll != 0 {
			continue
		}
		h.Add(snap(at(float64(sec)), grp("g", po("t", 0, c, end))))
		g, _ := h.Evaluate("g", at(float64(sec)))
		got[sec] = g.Partitions[0]
	}
	return got
}

// resetStep advances runReset's world to second sec: its commit c and
// log end end.
func resetStep(sec int, c, end *int64) {
	*end += 10
	switch {
	case sec == 1000:
		*c -= 10000
	case sec > 1000:
		*c = min(*end, *c+20)
	default:
		*c = *end
	}
}

// rewindSpan returns the first and last second at which the partition
// read REWIND, and whether it read REWIND anywhere else.
func rewindSpan(got map[int]PartitionHealth) (first, last int, gaps bool) {
	first = -1
	other := false // a poll not REWIND since the latest REWIND
	for sec := 1; sec <= 3600; sec++ {
		p, ok := got[sec]
		if !ok {
			continue
		}
		if p.Status != StatusRewind {
			other = first >= 0
			continue
		}
		if first < 0 {
			first = sec
		} else if other {
			gaps = true
		}
		last, other = sec, false
	}
	return first, last, gaps
}

// TestARewindHoldsPastItsObservations: the rules find a REWIND among a
// partition's commit observations, a ring of ten of them, and a consumer
// that commits at every poll pushes the one before the drop out of the
// ring within ten polls. The REWIND holds for the event hold all the
// same: `kgroups health`'s whole sampling window (here 5 minutes at 5 s
// polls, where the ring spans 50 s), and the UI's floor of 45 s at 1 s
// polls, where the ring spans 10 s; then, the consumer still behind the
// offset it had reached, the verdict follows its state again. A held
// REWIND keeps its first drop's offsets.
func TestARewindHoldsPastItsObservations(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cfg       Config
		poll      int
		wantFirst int
		wantLast  int
		wantHigh  int64
	}{
		// The last commit seen before the drop: at 995 s, or at 999 s.
		{"health's 5m window at 5s polls", Config{EventHold: 5 * time.Minute}, 5, 1000, 1300, 109950},
		{"the UI's defaults at 1s polls", DefaultConfig(), 1, 1000, 1045, 109990},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runReset(t, tc.cfg, tc.poll)
			first, last, gaps := rewindSpan(got)
			if first != tc.wantFirst || last != tc.wantLast || gaps {
				t.Fatalf("REWIND from %d s to %d s (gaps: %v), want from %d s to %d s without a gap", first, last, gaps, tc.wantFirst, tc.wantLast)
			}
			rw := got[last].Rewind
			if rw.High != tc.wantHigh || rw.Low != 99990 || !rw.At.Equal(at(1000)) {
				t.Errorf("held REWIND at %d s: %+v, want high %d, low 99990, at 1000 s", last, rw, tc.wantHigh)
			}
			if s := got[last+tc.poll].Status; s == StatusRewind || s == StatusStall || s == StatusStop {
				t.Errorf("after the hold: %v, want the verdict of a consumer catching up", s)
			}
		})
	}
}

// TestARewindEndsWhenTheConsumerIsBack: a REWIND held past its
// observations ends as soon as the consumer commits at or past the
// offset it had reached, as one the ring still shows does.
func TestARewindEndsWhenTheConsumerIsBack(t *testing.T) {
	h := NewHistory(Config{EventHold: time.Hour})
	var end, c int64 = 100000, 100000
	last := -1
	for sec := 5; sec <= 3600; sec += 5 {
		end += 50
		switch {
		case sec == 1000:
			c -= 10000
		case sec > 1000:
			c = min(end, c+100)
		default:
			c = end
		}
		h.Add(snap(at(float64(sec)), grp("g", po("t", 0, c, end))))
		g, _ := h.Evaluate("g", at(float64(sec)))
		if g.Partitions[0].Status == StatusRewind {
			last = sec
		}
	}
	// Reset from 109,950 to 99,950 at 1,000 s, it gains 10 records a
	// second: back at 109,950 at 1,500 s, long after the ring of ten 5 s
	// polls forgot the drop, long before the hour's hold ends.
	if last != 1495 {
		t.Errorf("REWIND until %d s, want until 1495 s, the poll before the consumer is back at the offset it had reached", last)
	}
}

// TestARewindHoldsTheWindowsSpan: by default a REWIND holds for the
// window's span in time, ten observations at the polls' interval where
// they are further apart than MinDistance: four and a half minutes at
// 30 s polls and a minute and a half at 10 s polls, not the floor's
// minute and 45 s. Then the verdict follows the consumer's state.
func TestARewindHoldsTheWindowsSpan(t *testing.T) {
	for _, tc := range []struct {
		poll, wantFirst, wantLast int
	}{{30, 1020, 1290}, {10, 1000, 1090}} {
		got := runReset(t, DefaultConfig(), tc.poll)
		first, last, gaps := rewindSpan(got)
		if first != tc.wantFirst || last != tc.wantLast || gaps {
			t.Errorf("%d s polls: REWIND from %d s to %d s (gaps: %v), want from %d s to %d s without a gap", tc.poll, first, last, gaps, tc.wantFirst, tc.wantLast)
		}
		if s := got[last+tc.poll].Status; s == StatusRewind || s == StatusStall || s == StatusStop {
			t.Errorf("%d s polls: after the hold: %v, want the verdict of a consumer catching up", tc.poll, s)
		}
	}
}

// TestARecreatedTopicEndsAHeldRewind: the consumer of runReset, polled
// as `kgroups health --window 5m` at 5 s polls, is reset at 1,000 s
// (REWIND, held for the window); at 1,100 s its topic is deleted and
// created again, and it reads the new log from 0, three seconds behind
// (its lag 30), on a broker without topic ids (the offsets tell) and on
// one with them (the new id tells). The held
// REWIND was the old log's: nothing compares the new log's offsets with
// the old one's, so the partition reads REWIND no more from 1,100 s.
func TestARecreatedTopicEndsAHeldRewind(t *testing.T) {
	for _, ids := range []bool{false, true} {
		h := NewHistory(Config{EventHold: 5 * time.Minute})
		var end, c int64 = 100000, 100000
		for sec := 1; sec <= 1400; sec++ {
			if sec >= 1100 {
				// The new log, written at 10 a second from 1,100 s: its
				// consumer three seconds behind.
				end = 10 * int64(sec-1099)
				c = max(0, end-30)
			} else {
				resetStep(sec, &c, &end)
			}
			if sec%5 != 0 {
				continue
			}
			sn := snap(at(float64(sec)), grp("g", po("t", 0, c, end)))
			if ids {
				// A broker that gives topic ids: the new id tells.
				sn.TopicIDs = map[string]kafka.TopicID{"t": {1}}
				if sec >= 1100 {
					sn.TopicIDs["t"] = kafka.TopicID{2}
				}
			}
			h.Add(sn)
			g, _ := h.Evaluate("g", at(float64(sec)))
			switch st := g.Partitions[0].Status; {
			case sec >= 1000 && sec < 1100 && st != StatusRewind:
				t.Errorf("ids %v, %d s, reset at 1,000 s: %v, want REWIND", ids, sec, st)
			case sec >= 1100 && st == StatusRewind:
				t.Errorf("ids %v, %d s, the topic recreated at 1,100 s: REWIND %+v, want none", ids, sec, g.Partitions[0].Rewind)
			}
		}
	}
}
