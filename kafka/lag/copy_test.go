package lag_test

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestCopiesGiveTheSameAnswers feeds one tracker every write, and a pair
// the way the UI does (tui/judge.go): each write goes into a copy of the
// front made with CopyFrom, sharing its slabs, while another goroutine
// reads the front; then the copy becomes the front. The front answers
// exactly as before while the copy is written (under -race nothing the
// reads touch is written), and the new front exactly as the single
// tracker: every verdict, the counts, each group's series, partitions and
// partition series, the commits to read next. Polls go past the ring, a
// reset is noted before a poll, and records are read after some. The
// copy is made into the old front, as a History copied into again
// reuses its memory, and into a new tracker each time, as the UI's
// judging job makes one (History.copyGroupsFresh).
func TestCopiesGiveTheSameAnswers(t *testing.T) {
	t.Run("reused", func(t *testing.T) { copiesGiveTheSameAnswers(t, false) })
	t.Run("new", func(t *testing.T) { copiesGiveTheSameAnswers(t, true) })
}

func copiesGiveTheSameAnswers(t *testing.T, fresh bool) {
	t.Helper()
	cfg := lag.Config{Samples: 8, Window: 4, TimePoints: 6}
	one := lag.NewTracker(cfg)
	front, back := lag.NewTracker(cfg), lag.NewTracker(cfg)
	write := func(i int, s *kafka.Snapshot, f func(*lag.Tracker)) {
		t.Helper()
		f(one)
		before := answers(front, s)
		if fresh {
			back = lag.NewTracker(cfg)
		}
		back.CopyFrom(front)
		var during trackerAnswers
		var wg sync.WaitGroup
		wg.Go(func() { during = answers(front, s) })
		f(back)
		wg.Wait()
		if !reflect.DeepEqual(during, before) {
			t.Fatalf("poll %d: the front read while the copy was written:\n%+v\nbefore\n%+v", i, during, before)
		}
		if after := answers(front, s); !reflect.DeepEqual(after, before) {
			t.Fatalf("poll %d: the front after the copy was written:\n%+v\nbefore\n%+v", i, after, before)
		}
		front, back = back, front
		if got, want := answers(front, s), answers(one, s); !reflect.DeepEqual(got, want) {
			t.Fatalf("poll %d: the copy answers\n%+v\nthe single tracker\n%+v", i, got, want)
		}
	}
	read := 0
	for i := range 40 {
		s := fixture.Evolving(i)
		if i == 14 {
			r := lag.Reset{Time: s.Time.Add(-time.Second), Receipt: "r-14", Offsets: []lag.ResetOffset{{Topic: "inventory", Partition: 0, Before: 500, After: 0}}}
			write(i, s, func(l *lag.Tracker) { l.NoteReset("inventory-sync", r) })
		}
		write(i, s, func(l *lag.Tracker) { l.Add(s) })
		if i%3 == 1 {
			want := one.WantExact(16, nil)
			recs := make(map[kafka.CommitKey]kafka.RecordTime)
			for k, p := range want {
				recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: s.Time.Add(-time.Duration(10+k) * time.Second)}
			}
			write(i, s, func(l *lag.Tracker) { l.AddExact(recs) })
			read += len(recs)
		}
	}
	if read == 0 {
		t.Fatal("no record was read at a commit: AddExact went untested")
	}
}

// trackerAnswers is everything the screens read from a tracker about the
// groups of one snapshot.
type trackerAnswers struct {
	counts   [4]int
	now      time.Time
	verdicts []lag.Verdict
	series   [][]lag.Point
	healths  []lag.GroupHealth
	parts    [][]lag.Point
	lags     [][]int64
	want     []kafka.PartitionOffsets
}

func answers(l *lag.Tracker, s *kafka.Snapshot) trackerAnswers {
	var a trackerAnswers
	a.counts[0], a.counts[1], a.counts[2] = l.Counts()
	a.counts[3] = l.Judging()
	a.now = l.Now()
	for gi := range s.Groups {
		g := &s.Groups[gi]
		a.verdicts = append(a.verdicts, l.Group(s, gi), l.Named(g.Name))
		a.series = append(a.series, l.GroupSeries(g.Name, nil))
		a.lags = append(a.lags, l.GroupLagSeries(g.Name, nil))
		gh, _ := l.Evaluate(g.Name, nil)
		a.healths = append(a.healths, gh)
		for _, p := range gh.Partitions {
			a.parts = append(a.parts, l.PartitionSeries(g.Name, p.Topic, p.Partition, p.TimeLag, nil))
		}
	}
	a.want = l.WantExact(64, nil)
	return a
}
