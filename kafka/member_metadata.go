package kafka

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// ReadMemberMetadata decodes a classic member's ConsumerMemberMetadata as
// the clients write it. kafka-go writes version 1 but stops after the user
// data, without the owned partitions version 1 adds: that is decoded as
// what it holds (topics and user data), with truncated set, rather than
// refused. The poll keeps the bytes as the member sent them
// (Member.JoinMetadata), so that this layout, and whether user data was
// null or empty, survive for kafka/rebalance to weigh.
func ReadMemberMetadata(b []byte) (meta kmsg.ConsumerMemberMetadata, truncated bool, err error) {
	meta = kmsg.NewConsumerMemberMetadata()
	err = meta.ReadFrom(b)
	if err == nil || len(b) < 2 || b[0] != 0 || b[1] != 1 {
		return meta, false, err
	}
	v0 := slices.Clone(b)
	v0[1] = 0
	meta = kmsg.NewConsumerMemberMetadata()
	if err0 := meta.ReadFrom(v0); err0 != nil {
		return meta, false, err // not that either: the first error says more
	}
	meta.Version = 1
	return meta, true, nil
}
