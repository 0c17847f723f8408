package ui

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
)

// LagHistory is what screens read from the lag history: a group's total lag
// per poll, oldest first. It is an interface so that screens render from any
// history (the real one, or a fixture in tests).
type LagHistory interface {
	GroupLagSeries(group string, dst []int64) []int64
}

// DataMsg delivers a new poll result to every screen on the stack. Snapshot
// is never nil; it, History and Lag are shared and must not be modified.
// A screen reads History, Lag and Rebalances on the UI loop, and only
// those of the latest DataMsg: the root judges polls off the UI loop into
// a second copy that shares the latest one's history, and the copies a
// previous DataMsg carried share memory the next judging job writes.
type DataMsg struct {
	Snapshot *kafka.Snapshot
	History  LagHistory
	// Lag holds the verdicts of this poll and the series for charts. The
	// root sets it (and History to the same value); nil means nothing is
	// known, and screens show every verdict as unknown.
	Lag *lag.Tracker
	// Rebalances says which groups are rebalancing and when each last
	// did, from the root's rebalance timeline, fed with this poll before
	// the DataMsg is sent. Nil means nothing is known.
	Rebalances RebalanceStatus
	// Prepared is what this screen's Prepare (see Preparer) worked out
	// from this poll off the UI loop; nil when the screen prepares
	// nothing, or was not on the stack when the poll's judging began.
	Prepared any
}

// Preparer is a screen whose taking of a poll costs more than the UI loop
// can spare (sorting 10,000 groups, judging a group of 50,000 partitions).
// When the root starts judging a poll off the UI loop, it calls Prepare on
// the UI loop; the function returned runs off it, with the judged poll
// (whose Snapshot, Lag and Rebalances nothing writes while it runs), and
// must read nothing of the screen but copies taken by Prepare. What it
// returns reaches the screen as DataMsg.Prepared with that poll. A screen
// whose settings changed in between works the poll out itself.
type Preparer interface {
	Prepare() func(DataMsg) any
}

// RebalanceStatus is a group's rebalance status as far as the polls saw it;
// *rebalance.Timeline implements it. ok is false for a group never seen.
type RebalanceStatus interface {
	Status(group string) (s rebalance.Status, ok bool)
}

// ResetKind is what a reset request asks the root to open.
type ResetKind int

const (
	// ResetGroup resets a group's offsets (all its partitions, or the
	// topics typed in the wizard).
	ResetGroup ResetKind = iota
	// ResetPartitions resets the partitions chosen on the group screen.
	ResetPartitions
	// SeekPartition moves one partition to an offset or a time.
	SeekPartition
	// DeleteGroup deletes the group.
	DeleteGroup
)

// ResetMsg asks the root to open the reset wizard on Group. Partitions are
// the chosen rows for ResetPartitions (one for SeekPartition). Screens send
// it from Dangerous actions only, so a read-only context never gets here.
type ResetMsg struct {
	Kind       ResetKind
	Group      string
	Partitions []reset.TP
}

// RemoveMembersMsg asks the root to open the member removal dialog. Group
// is the group as the screen showed it (a snapshot's, never modified): the
// plan is made from what the user saw. MemberIDs are the members to
// remove; All removes every member.
type RemoveMembersMsg struct {
	Group     *kafka.Group
	MemberIDs []string
	All       bool
}

// OpenGroupMsg asks the root to open the group screen for Name.
type OpenGroupMsg struct{ Name string }

// SelectGroupMsg asks the groups screen to move its cursor to Name, so that
// going back from a group opened by name lands on it.
type SelectGroupMsg struct{ Name string }

// FlashMsg shows a short message in the footer until the next key press.
type FlashMsg struct {
	Text  string
	Error bool
}

// TimestampsRequestMsg asks the root to read the records at the committed
// offsets of Parts (copies of the rows a screen shows), for exact time lag.
// The root reads in a Cmd, so no screen ever waits for Kafka, and answers
// Owner, alone, with a TimestampsMsg carrying the same ID.
type TimestampsRequestMsg struct {
	ID    uint64
	Owner Component
	Group string
	Parts []kafka.PartitionOffsets
}

// TimestampsMsg answers a TimestampsRequestMsg.
type TimestampsMsg struct {
	ID      uint64
	Group   string
	Records map[kafka.CommitKey]kafka.RecordTime
	// Err is set when nothing could be read at all, or when this
	// connection cannot read records; single partitions carry their own.
	Err error
}

// RequestID implements Reply.
func (m TimestampsMsg) RequestID() uint64 { return m.ID }

// OpenRecordMsg asks the root to push the read-only record viewer on the
// record at Offset of Topic's Partition, read for Group. Offset -1 means
// the group's committed offset (the next record the group will process).
// The group screen's Partitions tab sends it on `v`; a diagnosis finding
// that concerns a record sends it too.
type OpenRecordMsg struct {
	Group, Topic string
	Partition    int32
	Offset       int64
}
