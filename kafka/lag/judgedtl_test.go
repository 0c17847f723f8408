package lag

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// pausedWorld is one partition whose log is kafkatest.PausedLog: ten
// records a second for ten minutes, a five-minute pause, ten more minutes,
// none from 1,500 s on. Its consumer reads four records a second from the
// start and commits every every seconds; it is polled every poll seconds,
// and the records at the commits older than the points are read after
// each poll (WantExact, AddExact), as the UI and serve read them. It
// crosses the pause in what it reads at 1,500 s, when production stops:
// its time lag drops by the pause's five minutes, then grows by 0.6 s a
// second (it reads records written faster than it reads them) while its
// lag falls by four records a second. judge, if not nil, is called after
// each poll is added and before its records are read.
type pausedWorld struct {
	kafkatest.PausedLog
	every, poll int
}

// written is when the record at offset o was written, seconds.
func (w pausedWorld) written(o int64) float64 { return w.Written(o) }

// end is the log end at s seconds.
func (w pausedWorld) end(s int) int64 { return w.End(s) }

// run polls the world to until seconds and returns the verdict text and
// reason at each poll.
func (w pausedWorld) run(until int, judge func(h *History, s int, c int64)) map[int]string {
	h := NewHistory(DefaultConfig())
	got := make(map[int]string)
	c := int64(0)
	for s := 0; s <= until; s += w.poll {
		if s%w.every == 0 {
			c = int64(4 * s)
		}
		g := grp("g", po("t", 0, c, w.end(s)))
		g.Members = []kafka.Member{{MemberID: "m-1"}}
		h.Add(snap(at(float64(s)), g))
		if judge != nil {
			judge(h, s, c)
		}
		if want := h.WantExact(0, nil); len(want) > 0 {
			recs := make(map[kafka.CommitKey]kafka.RecordTime, len(want))
			for _, p := range want {
				k := kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}
				recs[k] = kafka.RecordTime{Offset: p.Committed, Timestamp: at(w.written(p.Committed))}
			}
			h.AddExact(recs)
		}
		gh, _ := h.Evaluate("g", at(float64(s)))
		v := Judge(gh, h.Config().Window)
		got[s] = v.Text() + " " + v.Reason()
	}
	return got
}

// TestAPollIsJudgedOnTheRecordReadBefore: the rules judge a poll as it is
// added, before the record at its commit is read. Where the commit is
// older than the points (its time lag only a lower bound, the oldest
// point's age) and the record at the commit of the poll before was read,
// the new commit's record is read on the line between that record and
// the oldest point: exact where production was steady between them, and
// never outside the lower bound and the older record's age. Before, the
// rules judged on the lower bound: 295 s where the consumer was 840 s
// behind.
func TestAPollIsJudgedOnTheRecordReadBefore(t *testing.T) {
	w := pausedWorld{every: 5, poll: 5}
	checked := 0
	w.run(1400, func(h *History, s int, c int64) {
		if s != 700 && s != 985 && s != 1400 {
			return
		}
		gh := h.groups["g"]
		ph := &gh.parts[0]
		end := w.end(s)
		now := at(float64(s)).UnixNano()
		bound := h.timeLagOf(ph, c, end, now)
		// As the poll is judged, the History still holds the record
		// read at the commit of the poll before (it drops it once the
		// poll is added): read it again here.
		prev, _ := h.sample(ph, h.seq-1)
		h.AddExact(map[kafka.CommitKey]kafka.RecordTime{{Topic: "t", Partition: 0, Offset: prev}: {Offset: prev, Timestamp: at(w.written(prev))}})
		got, atLeast := h.judgedTimeLag(ph, c, end, now)
		want := float64(s) - w.written(c)
		switch s {
		case 700, 985:
			// 700 s: production paused since 600 s; 985 s: the
			// consumer is 591 s behind, past the points by a second.
			// Production was steady between the record read at the
			// commit before (20 records back) and the oldest point:
			// the line is exact.
			if bound.Kind != TimeLagAtLeast || !atLeast || got.Kind != TimeLagInterpolated || got.Seconds != want {
				t.Errorf("%d s: judged %v %.1f s (lower bound %v %.1f s, %v); want interpolated %.1f s", s, got.Kind, got.Seconds, bound.Kind, bound.Seconds, atLeast, want)
			}
		case 1400:
			// 840 s behind; the oldest point (8,050 at 1,105 s) is 295 s
			// old, and the pause lies between it and the record read
			// at the commit before (5,580, written at 558 s): the line
			// runs 4.5 records a second where 10 were written, and
			// reads 837.6 s, between the lower bound and the age of
			// the record before (842 s).
			if bound.Kind != TimeLagAtLeast || bound.Seconds != 295 || got.Kind != TimeLagInterpolated || fmt.Sprintf("%.1f", got.Seconds) != "837.6" || want != 840 {
				t.Errorf("%d s: judged %v %.1f s (lower bound %v %.1f s); want interpolated 837.6 s (true %.1f s)", s, got.Kind, got.Seconds, bound.Kind, bound.Seconds, want)
			}
		}
		checked++
	})
	if checked != 3 {
		t.Fatalf("checked %d polls, want 3", checked)
	}
}

// TestACatchUpWhoseTimeLagGrowsIsNoOK: pausedWorld's consumer, once it
// crosses the pause (production stopped), has a lag falling by four
// records a second and a time lag growing by 0.6 s a second: never OK
// (a consumer whose time lag keeps growing is not), and no WARN either
// (its lag falls: it catches up). Judged on the lower bound, it read OK
// 65-70 s after the crossing, while its trend still held the drop
// (1,565 s at 5 s commits, polled every 5 s or every second; 1,570 s at
// 10 s commits). Tried on rhythms and polls it was not written
// for: at 30 s and one-minute rhythms, polls of 5 s to 30 s, WARN up to
// the crossing and JUDGING from its first trend to the end, as before. It
// says why: its time lag grew 1m21s in the last 2m15s (not that a trend
// needs 2m30s of commits, which it had).
// (Commits and polls every second still read OK for 8 s, 1,556-1,563 s,
// where 30 s before: the newest trend point a span old is from before
// the drop.)
func TestACatchUpWhoseTimeLagGrowsIsNoOK(t *testing.T) {
	reason := regexp.MustCompile(`^JUDGING its time lag grew (\S+) in the last (\S+): not OK while it grows$`)
	for _, tc := range []struct {
		every, poll int
		judging     int    // the first poll JUDGING after the WARN
		last        string // the reason at the last poll
	}{
		{5, 5, 1565, "1m21s in the last 2m15s"},
		{5, 1, 1564, "1m21s in the last 2m15s"},
		{10, 5, 1565, "1m18s in the last 2m10s"},
		{30, 5, 1605, "2m06s in the last 3m30s"},
		{30, 10, 1620, "2m06s in the last 3m30s"},
		{60, 10, 1710, "4m12s in the last 7m"},
		{30, 30, 1800, "2m06s in the last 3m30s"},
	} {
		t.Run(fmt.Sprintf("every %ds, polls %ds", tc.every, tc.poll), func(t *testing.T) {
			got := pausedWorld{every: tc.every, poll: tc.poll}.run(2100, nil)
			for s := 0; s <= 2100; s += tc.poll {
				v := got[s]
				switch {
				case s < 1300:
				case s < tc.judging:
					if v != "WARN " {
						t.Errorf("%d s: %q, want WARN up to the crossing's trend", s, v)
					}
				default:
					// JUDGING, saying how much the time lag grew over
					// how long: 0.6 s a second, read from the commits'
					// floors against the time lag now (up to a rhythm's
					// climb more).
					m := reason.FindStringSubmatch(v)
					if m == nil {
						t.Errorf("%d s: %q, want JUDGING: its time lag grew ... in the last ...", s, v)
						continue
					}
					rise, err1 := time.ParseDuration(m[1])
					over, err2 := time.ParseDuration(m[2])
					if err1 != nil || err2 != nil || over <= 0 {
						t.Errorf("%d s: %q: durations do not parse", s, v)
						continue
					}
					if r := rise.Seconds() / over.Seconds(); r < 0.59 || r > 0.6+float64(tc.every)/over.Seconds() {
						t.Errorf("%d s: %q: grew %.2f s a second, want 0.6 (up to a rhythm's climb more)", s, v, r)
					}
				}
			}
			if want := "JUDGING its time lag grew " + tc.last + ": not OK while it grows"; got[2100] != want {
				t.Errorf("2100 s: %q, want %q", got[2100], want)
			}
		})
	}
}
