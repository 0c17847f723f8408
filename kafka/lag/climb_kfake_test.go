package lag_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestACommitFurtherBehindEachTimeOnKfake is TestACommitFurtherBehindEachTime
// with a real member of the group on kfake: records stamped ten a second,
// the member commits every two minutes, at the log end until 600 s and at
// 90% of the producers' rate after, each poll stamped 5 s after the one
// before, the records at its commits read from the cluster after the poll
// is judged. From its fourth commit further behind than the one before
// (960 s) it reads JUDGING, then WARN once the trend calls it; OK before.
func TestACommitFurtherBehindEachTimeOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	s := newScenario(t, c, "climb-at-each")
	written := func(o int64) time.Time { return base.Add(time.Duration(o) * time.Second / 10) }
	end, committed := int64(0), int64(0)
	var seq []string
	last := ""
	for sec := 0; sec <= 1500; sec += 5 {
		if want := int64(10 * sec); want > end {
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
		if sec%120 == 0 {
			committed = end
			if sec > 600 {
				committed = 6000 + int64(9*(sec-600))
			}
			s.commit(t, committed)
		}
		gh := s.poll(t, committed, end, true)
		if want := s.h.WantExact(0, nil); len(want) > 0 {
			recs, err := s.cl.CommittedTimestamps(ctx(t), want)
			if err != nil {
				t.Fatal(err)
			}
			s.h.AddExact(recs)
			gh, _ = s.h.Evaluate(s.group, s.last)
		}
		if sec < 600 {
			continue
		}
		v := lag.Judge(gh, s.h.Config().Window)
		text := v.Text()
		if v.Judging() {
			text += " (" + v.Reason() + ")"
		}
		if text != last {
			seq = append(seq, strconv.Itoa(sec)+" "+text)
			last = text
		}
	}
	const rose = "JUDGING (its time lag rose at each of its last "
	want := []string{"600 OK", "960 " + rose + "4 commits, 36s in 6m: not OK while it climbs)",
		"1080 " + rose + "5 commits, 48s in 8m: not OK while it climbs)",
		"1200 " + rose + "6 commits, 1m in 10m: not OK while it climbs)",
		"1320 " + rose + "7 commits, 1m12s in 12m: not OK while it climbs)", "1360 WARN"}
	if !slices.Equal(seq, want) {
		t.Errorf("from 600 s:\n got %q\nwant %q", seq, want)
	}
}
