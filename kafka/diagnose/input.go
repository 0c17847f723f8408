package diagnose

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// Config holds the rules' thresholds. Zero fields take the defaults.
type Config struct {
	// StormRebalances: more rebalances than this in the window is a
	// rebalance storm. Default 3.
	StormRebalances int
	// SkewShare is the share of the group's lag one member must hold for
	// lag-skew (default 0.8), SkewNearZero the share every other member
	// stays at or below (default 0.05), and SkewMinLag the group lag
	// below which skew is not worth a finding (default 100 records).
	SkewShare, SkewNearZero float64
	SkewMinLag              int64
	// RetentionMarginPercent is the part of retention.ms kept as a
	// margin: a time lag above retention minus the margin is
	// consumer-behind-retention. Default 10.
	RetentionMarginPercent int
	// SlowerSharePercent is how far below the produce rate, in percent
	// of it, the consume rate must be for slower-than-producers: the
	// noise of rates measured over a few polls of batched commits.
	// Default 10.
	SlowerSharePercent int
}

func (c Config) normalize() Config {
	if c.StormRebalances <= 0 {
		c.StormRebalances = defaultStorm
	}
	if c.SkewShare <= 0 {
		c.SkewShare = defaultSkewShare
	}
	if c.SkewNearZero <= 0 {
		c.SkewNearZero = defaultSkewNearZero
	}
	if c.SkewMinLag <= 0 {
		c.SkewMinLag = defaultSkewMinLag
	}
	if c.RetentionMarginPercent <= 0 {
		c.RetentionMarginPercent = defaultMarginPercent
	}
	if c.SlowerSharePercent <= 0 {
		c.SlowerSharePercent = defaultSlowerPercent
	}
	return c
}

// Input is everything the rules look at for one group.
type Input struct {
	// Group is the group as the latest poll saw it.
	Group *kafka.Group
	// PartitionCounts is the latest snapshot's partition count per topic
	// (kafka.Snapshot.PartitionCounts).
	PartitionCounts map[string]int32
	// Verdict is lag.Judge over the history's evaluation of the group as
	// of the latest poll: the partitions' statuses and time lags.
	Verdict lag.Verdict
	// Events are the group's rebalance timeline events; only those in
	// [Since, Now] count.
	Events     []rebalance.Event
	Since, Now time.Time
	// Reads holds the extra reads (nil: none were made; the rules that
	// need them find nothing).
	Reads  *Reads
	Config Config
	// Unmoved, when set, says since when a partition's committed offset
	// has stood at its latest value (lag.History.CommitUnmovedSince for
	// this group): the age of a stalled commit. nil: unknown.
	Unmoved func(topic string, partition int32) (since time.Time, ok bool)
	// Series, when set, appends to dst the partition's polls in the
	// history, oldest first (lag.History.PartitionSeries for this
	// group): the commits' rhythm, which member-not-committing waits
	// for. nil: unknown, and a member still commits when one of its
	// partitions advanced over the rate window.
	Series func(topic string, partition int32, dst []lag.Sample) []lag.Sample
	// NoMembersSince, when not zero, is since when the group has had no
	// members (lag.History.NoMembersSince), and NoMembersWhole reports
	// that it had none at any poll watched: a STOP's cause.
	NoMembersSince time.Time
	NoMembersWhole bool
	// Bootstrap is a broker address for suggested kafka-*.sh commands.
	Bootstrap string
	// Connection are the words that name the cluster on a kgroups command
	// line ("--context", NAME or "-b", HOSTS), put after "kgroups" in the
	// suggested commands so that they run pasted as they are; nil for
	// none.
	Connection []string
}

// TP names a partition.
type TP struct {
	Topic     string
	Partition int32
}

// StableOffsets is a partition's last stable offset at the start and at
// the end of the window.
type StableOffsets struct {
	First, Last int64
}

// Producer is a producer writing to a partition (DescribeProducers).
type Producer struct {
	ProducerID    int64
	ProducerEpoch int16
	// LastTimestamp is when it last produced, in Unix milliseconds (-1
	// when unknown).
	LastTimestamp int64
	// TxnStartOffset is the first offset of its open transaction, or -1.
	TxnStartOffset int64
}

// Transaction is a transactional id's state (ListTransactions and
// DescribeTransactions).
type Transaction struct {
	TransactionalID string
	ProducerID      int64
	State           string
	TimeoutMillis   int32
	// StartTimestamp is when the transaction began, in Unix
	// milliseconds, or -1.
	StartTimestamp int64
}

// Record is the record at a committed offset, cut for a preview.
type Record struct {
	Offset int64
	// Timestamp is in Unix milliseconds.
	Timestamp int64
	// Key and Value hold at most the first 64 bytes; KeySize and
	// ValueSize are the whole sizes. NullKey and NullValue tell a null
	// from an empty one.
	Key, Value         []byte
	KeySize, ValueSize int
	NullKey, NullValue bool
	Err                error
}

// Reads are the bounded extra reads that some rules need.
type Reads struct {
	// Stable holds the last stable offsets of the partitions whose
	// stable offset trailed the log end at the end of the window.
	Stable map[TP]StableOffsets
	// Producers are the producers of those partitions.
	Producers map[TP][]Producer
	// Transactions are the open transactions by producer id.
	Transactions map[int64]Transaction
	// Retention is each topic's retention.ms (-1 for unlimited).
	Retention map[string]int64
	// Records are the records at the commits of stalled partitions.
	Records map[kafka.CommitKey]Record
	// Missing are the reads the brokers cannot answer (too old, or
	// denied by ACLs), each once: the rules that need them find
	// nothing, and the output says what is missing and why.
	Missing []kafka.Missing
}

// Lacks reports whether the reads of f could not be made.
func (r *Reads) Lacks(f kafka.Feature) bool {
	if r == nil {
		return false
	}
	for _, m := range r.Missing {
		if m.Feature.ID == f.ID {
			return true
		}
	}
	return false
}

// StableOf returns the partition's last stable offset when it trails the
// log end, and false otherwise (or when it was not read).
func (r *Reads) StableOf(topic string, partition int32) (StableOffsets, bool) {
	if r == nil {
		return StableOffsets{}, false
	}
	s, ok := r.Stable[TP{topic, partition}]
	return s, ok
}
