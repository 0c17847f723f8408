package lag_test

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestACatchUpWhoseTimeLagGrowsOnKfake is TestACatchUpWhoseTimeLagGrowsIsNoOK
// (kafka/lag) on a kfake cluster, a real member committing real offsets
// and kgroups reading the records at them after each poll, as the UI and
// serve do: producers write ten records a second (stamped so) for ten
// minutes, pause five, write ten more and stop at 1,500 s; the member
// commits four records a second, every 5 s poll. From 1,500 s its lag
// falls and its time lag grows 0.6 s a second: WARN before, JUDGING
// from 1,565 s to the end (its time lag grew 1m21s in the last 2m15s),
// never OK. Judged on the lower bound, as before, it read OK at 1,565 s.
func TestACatchUpWhoseTimeLagGrowsOnKfake(t *testing.T) {
	var log kafkatest.PausedLog
	got := judgedOnKfake(t, "paused-catchup", log.Written, log.End, func(sec int) int64 { return int64(4 * sec) }, 1800)
	for sec := 1300; sec <= 1800; sec += 5 {
		switch v := got[sec]; {
		case sec < 1565 && v != "WARN ":
			t.Errorf("%d s: %q, want WARN up to the crossing's trend", sec, v)
		case sec >= 1565 && len(v) < 27 || sec >= 1565 && v[:26] != "JUDGING its time lag grew ":
			t.Errorf("%d s: %q, want JUDGING: its time lag grew ...", sec, v)
		}
	}
	if want := "JUDGING its time lag grew 1m21s in the last 2m15s: not OK while it grows"; got[1800] != want {
		t.Errorf("1800 s: %q, want %q", got[1800], want)
	}
}

// judgedOnKfake runs a world on a kfake cluster: a topic of records
// stamped at written(o) seconds after base, endAt(sec) of them by second
// sec; a real member of group commits commitAt(sec) before each poll
// (the same offset again between its commits); each poll is stamped 5 s
// after the one before, judged as it is added, then the records at its
// commits are read from the cluster, as the UI and serve read them. It
// returns each poll's verdict and reason, by second, to last.
func judgedOnKfake(t *testing.T, group string, written func(o int64) float64, endAt, commitAt func(sec int) int64, last int) map[int]string {
	t.Helper()
	c := kafkatest.NewCluster(t)
	s := newScenario(t, c, group)
	end := int64(0)
	got := map[int]string{}
	for sec := 0; sec <= last; sec += int(pollGap / time.Second) {
		if want := endAt(sec); want > end {
			recs := make([]*kgo.Record, 0, want-end)
			for o := end; o < want; o++ {
				stamp := base.Add(time.Duration(written(o) * float64(time.Second)))
				recs = append(recs, &kgo.Record{Topic: s.topic, Partition: 0, Value: []byte("v"), Timestamp: stamp})
			}
			for _, r := range s.prod.ProduceSync(ctx(t), recs...) {
				if r.Err != nil {
					t.Fatalf("produce: %v", r.Err)
				}
			}
			end = want
		}
		commit := commitAt(sec)
		s.commit(t, commit)
		gh := s.poll(t, commit, end, true)
		// The records at the commits, read after the poll is judged.
		if want := s.h.WantExact(0, nil); len(want) > 0 {
			recs, err := s.cl.CommittedTimestamps(ctx(t), want)
			if err != nil {
				t.Fatal(err)
			}
			s.h.AddExact(recs)
			gh, _ = s.h.Evaluate(s.group, s.last)
		}
		v := lag.Judge(gh, s.h.Config().Window)
		got[sec] = v.Text() + " " + v.Reason()
	}
	return got
}
