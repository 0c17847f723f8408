package watch

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestStepJudgesAndReadsExact: a step adds the poll to the tracker and
// reads the records it wants, which makes the time lags of commits older
// than the polls exact; a failed read leaves lower bounds and is
// returned; a failed poll leaves the tracker as it was.
func TestStepJudgesAndReadsExact(t *testing.T) {
	cfg, _ := Config(10*fixture.PollEvery, fixture.PollEvery)
	n := 0
	var failRead, failPoll bool
	read := func(_ context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
		if failRead {
			return nil, errors.New("read failed")
		}
		out := map[kafka.CommitKey]kafka.RecordTime{}
		for _, p := range parts {
			out[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: fixture.Epoch.Add(-time.Hour)}
		}
		return out, nil
	}
	l := &Loop{Poll: func(context.Context) (*kafka.Snapshot, error) {
		if failPoll {
			return nil, errors.New("poll failed")
		}
		s := fixture.Evolving(n)
		n++
		return s, nil
	}, Read: read, Tracker: lag.NewTracker(cfg)}

	failRead = true
	snap, exactErr, err := l.Step(context.Background())
	if err != nil || exactErr == nil || snap == nil {
		t.Fatalf("first step: %v, %v", exactErr, err)
	}
	bounds := 0
	for i := range snap.Groups {
		if v := l.Tracker.Group(snap, i); v.MaxTimeLag.Kind == lag.TimeLagExact {
			t.Errorf("%s exact without a read", snap.Groups[i].Name)
		} else if v.MaxTimeLag.Kind == lag.TimeLagAtLeast {
			bounds++
		}
	}
	failRead = false
	snap, exactErr, err = l.Step(context.Background())
	if err != nil || exactErr != nil {
		t.Fatalf("second step: %v, %v", exactErr, err)
	}
	exact := 0
	for i := range snap.Groups {
		if l.Tracker.Group(snap, i).MaxTimeLag.Kind == lag.TimeLagExact {
			exact++
		}
	}
	if exact == 0 {
		t.Errorf("no exact time lag after a read (%d lower bounds before it)", bounds)
	}
	failPoll = true
	before := l.Tracker.Now()
	if _, _, err := l.Step(context.Background()); err == nil || l.Tracker.Now() != before {
		t.Errorf("a failed poll: %v, tracker at %s (was %s)", err, l.Tracker.Now(), before)
	}
}

// TestConfigIsHealths: the configuration from a window and an interval
// counts every poll as an observation and keeps the window of lag's
// default.
func TestConfigIsHealths(t *testing.T) {
	cfg, polls := Config(50*time.Second, 5*time.Second)
	if polls != 11 || cfg.Window != 10 || cfg.MinDistance != 2500*time.Millisecond || cfg.Samples != 11 || cfg.RatePolls != 11 {
		t.Errorf("%d polls, %+v", polls, cfg)
	}
	if cfg, _ := Config(time.Hour, time.Millisecond); cfg.Samples != MaxSamples {
		t.Errorf("samples %d, want the cap %d", cfg.Samples, MaxSamples)
	}
}
