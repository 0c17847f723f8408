package kafkatest

import (
	"context"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// PausedLog is one partition's log as the tests of a consumer crossing a
// pause in production see it: ten records a second for ten minutes, none
// for five, ten a second for ten more, and none from 1,500 s on.
type PausedLog struct{}

// Written is when the record at offset o was written, in seconds from
// the log's start.
func (PausedLog) Written(o int64) float64 {
	if o < 6000 {
		return float64(o) / 10
	}
	return 900 + float64(o-6000)/10
}

// End is the log end sec seconds from the log's start.
func (PausedLog) End(sec int) int64 {
	switch {
	case sec < 600:
		return int64(10 * sec)
	case sec < 900:
		return 6000
	case sec < 1500:
		return 6000 + int64(10*(sec-900))
	}
	return 12000
}

// CommitAs makes the group member cl (a kgo client in a consumer group,
// on kfake or a real broker) commit offset on topic's partition, as its
// application would, and returns the request's error or the first
// partition's.
func CommitAs(ctx context.Context, cl *kgo.Client, topic string, partition int32, offset int64) error {
	var cerr error
	cl.CommitOffsetsSync(ctx, map[string]map[int32]kgo.EpochOffset{topic: {partition: {Epoch: -1, Offset: offset}}},
		func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
			if err != nil {
				cerr = err
				return
			}
			for _, rt := range resp.Topics {
				for _, rp := range rt.Partitions {
					if err := kerr.ErrorForCode(rp.ErrorCode); err != nil && cerr == nil {
						cerr = err
					}
				}
			}
		})
	return cerr
}
