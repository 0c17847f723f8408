package lag

import (
	"errors"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

func TestExactTimeLag(t *testing.T) {
	now := at(100)
	recs := map[kafka.CommitKey]kafka.RecordTime{
		{Topic: "t", Partition: 0, Offset: 40}: {Offset: 40, Timestamp: at(3)},
		{Topic: "t", Partition: 0, Offset: 45}: {Offset: 47, Timestamp: at(99.5)},
		{Topic: "t", Partition: 1, Offset: 40}: {Offset: 41, NoRecords: true},
		{Topic: "t", Partition: 2, Offset: 40}: {Err: errors.New("TOPIC_AUTHORIZATION_FAILED")},
		{Topic: "t", Partition: 3, Offset: 40}: {Offset: 40, Timestamp: at(130)},
	}
	for _, tc := range []struct {
		name string
		p    kafka.PartitionOffsets
		want TimeLag
	}{
		{"record at the commit", po("t", 0, 40, 50), TimeLag{Seconds: 97, Kind: TimeLagExact}},
		{"record after the commit", po("t", 0, 45, 50), TimeLag{Seconds: 0.5, Kind: TimeLagExact}},
		{"caught up", po("t", 0, 50, 50), TimeLag{Kind: TimeLagCaughtUp}},
		{"commit past the log end", po("t", 0, 60, 50), TimeLag{Kind: TimeLagCaughtUp}},
		{"only markers left", po("t", 1, 40, 42), TimeLag{Kind: TimeLagCaughtUp}},
		{"no commit", po("t", 0, kafka.NoOffset, 50), TimeLag{}},
		{"log end unknown", po("t", 0, 40, kafka.NoOffset), TimeLag{}},
		{"read failed", po("t", 2, 40, 50), TimeLag{}},
		{"not read", po("t", 0, 41, 50), TimeLag{}},
		{"other partition not read", po("t", 9, 40, 50), TimeLag{}},
		{"producer clock ahead", po("t", 3, 40, 50), TimeLag{Seconds: 0, Kind: TimeLagExact}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExactTimeLag(&tc.p, recs, now); got != tc.want {
				t.Errorf("ExactTimeLag = %+v, want %+v", got, tc.want)
			}
		})
	}
	if got := ExactTimeLag(&kafka.PartitionOffsets{Topic: "t", Committed: 40, LogEnd: 50}, nil, now); got.Known() {
		t.Errorf("without records: %+v, want unknown", got)
	}
}
