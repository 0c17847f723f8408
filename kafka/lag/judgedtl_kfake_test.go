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
	c := kafkatest.NewCluster(t)
	s := newScenario(t, c, "paused-catchup")
	var log kafkatest.PausedLog
	written := func(o int64) time.Time {
		return base.Add(time.Duration(log.Written(o) * float64(time.Second)))
	}
	end := int64(0)
	got := map[int]string{}
	for k := 0; k*5 <= 1800; k++ {
		sec := k * 5
		if want := log.End(sec); want > end {
			recs := make([]*kgo.Record, 0, want-end)
			for o := end; o < want; o++ {
				recs = append(recs, &kgo.Record{Topic: s.topic, Partition: 0, Value: []byte("v"), Timestamp: written(o)})
			}
			for _, r := range s.prod.ProduceSync(ctx(t), recs...) {
				if r.Err != nil {
					t.Fatalf("produce: %v", r.Err)
				}
			}
			end = want
		}
		c4 := int64(4 * sec)
		s.commit(t, c4)
		gh := s.poll(t, c4, end, true)
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
