package lag_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestFollowGivesTheSameAnswers: a tracker that takes each poll's
// verdicts from another with Follow (and FollowExact for the records that
// one read after the poll) answers exactly as the one that judged, poll
// after poll past the ring: every verdict, the counts, each group's
// series and partitions, the commits to read next. Some polls the copy
// adds itself (two polls judged in one job: only the latest is followed),
// and a reset noted before a poll reaches both.
func TestFollowGivesTheSameAnswers(t *testing.T) {
	cfg := lag.Config{Samples: 8, Window: 4}
	judged, copied := lag.NewTracker(cfg), lag.NewTracker(cfg)
	var s *kafka.Snapshot
	read := 0
	for i := range 30 {
		s = fixture.Evolving(i)
		if i == 14 {
			r := lag.Reset{Time: s.Time.Add(-time.Second), Receipt: "r-14", Offsets: []lag.ResetOffset{{Topic: "inventory", Partition: 0, Before: 500, After: 0}}}
			judged.NoteReset("inventory-sync", r)
			copied.NoteReset("inventory-sync", r)
		}
		judged.Add(s)
		var recs map[kafka.CommitKey]kafka.RecordTime
		if i%3 == 1 {
			want := judged.WantExact(16, nil)
			recs = make(map[kafka.CommitKey]kafka.RecordTime)
			for k, p := range want {
				recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: s.Time.Add(-time.Duration(10+k) * time.Second)}
			}
			judged.AddExact(recs)
			read += len(recs)
		}
		if i%5 == 2 {
			copied.Add(s) // an earlier poll of a job that judged two
			copied.AddExact(recs)
		} else {
			if !copied.Follow(s, judged) {
				t.Fatalf("poll %d: not followed", i)
			}
			copied.FollowExact(recs)
		}
		same(t, i, judged, copied, s)
	}
	if read == 0 {
		t.Fatal("no record was read at a commit: FollowExact went untested")
	}
}

func same(t *testing.T, i int, a, b *lag.Tracker, s *kafka.Snapshot) {
	t.Helper()
	ao, aw, ae := a.Counts()
	bo, bw, be := b.Counts()
	if ao != bo || aw != bw || ae != be || a.Judging() != b.Judging() || !a.Now().Equal(b.Now()) {
		t.Fatalf("poll %d: counts %d %d %d %d, copy %d %d %d %d", i, ao, aw, ae, a.Judging(), bo, bw, be, b.Judging())
	}
	for gi := range s.Groups {
		name := s.Groups[gi].Name
		if va, vb := a.Group(s, gi), b.Group(s, gi); !reflect.DeepEqual(va, vb) {
			t.Fatalf("poll %d, %s: verdict %+v, copy %+v", i, name, va, vb)
		}
		if ga, gb := a.GroupSeries(name, nil), b.GroupSeries(name, nil); !reflect.DeepEqual(ga, gb) {
			t.Fatalf("poll %d, %s: series %+v, copy %+v", i, name, ga, gb)
		}
		ha, oka := a.Evaluate(name, nil)
		hb, okb := b.Evaluate(name, nil)
		if oka != okb || !reflect.DeepEqual(ha, hb) {
			t.Fatalf("poll %d, %s: partitions %+v, copy %+v", i, name, ha, hb)
		}
	}
	if wa, wb := a.WantExact(64, nil), b.WantExact(64, nil); !reflect.DeepEqual(wa, wb) {
		t.Fatalf("poll %d: want exact %v, copy %v", i, wa, wb)
	}
}
