package render

import (
	"fmt"
	"io"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// View selects which of kafka-consumer-groups.sh's describe tables to print.
type View int

const (
	// Offsets is the default describe table: one row per partition.
	Offsets View = iota
	// Members is `--members`: one row per member.
	Members
	// State is `--state`: one row per group.
	State
)

// DescribeOptions say how Describe renders.
type DescribeOptions struct {
	View View
	// Wide appends kgroups' extra columns after the Kafka tool's and
	// shows every cell whole, where the default cuts a long id or host
	// with Ellipsis (columns.Column.Max).
	Wide bool
	// Verbose adds kafka-consumer-groups.sh --verbose's columns where it
	// adds them: LEADER-EPOCH to the partition view, the epochs and
	// assignments to --members, the epochs to --state.
	Verbose bool
	// Ellipsis ends a cut cell (Layout.Ellipsis; empty means "…").
	Ellipsis string
	// TimeLag, when set, appends the TIME-LAG column (describe
	// --time-lag) to the partition view, after every other column.
	TimeLag TimeLagFunc
	// AtLeast marks a time lag that is a lower bound
	// (format.AtLeast for the locale).
	AtLeast string
}

// Describe writes one table per group to stdout, separated by blank lines
// as kafka-consumer-groups.sh separates them, and the Kafka tool's notes
// about a group (no active members, rebalancing, nothing to show) to stderr,
// so that stdout stays parseable. A group with no rows for the chosen view
// gets no table, as in the Kafka tool.
func Describe(stdout, stderr io.Writer, groups []*kafka.Group, opts DescribeOptions) error {
	first := true
	var buf []byte
	cols := &describeColumns{}
	for _, g := range groups {
		if note := StateNote(g); note != "" {
			if err := writeNote(stderr, note); err != nil {
				return err
			}
		}
		table, empty := groupTable(g, opts, cols)
		if table == "" {
			// An Empty group's note already says why nothing follows.
			if g.State != kafka.StateEmpty {
				if err := writeNote(stderr, empty); err != nil {
					return err
				}
			}
			continue
		}
		// One write per group, the blank line before it included.
		buf = buf[:0]
		if !first {
			buf = append(buf, '\n')
		}
		first = false
		buf = append(buf, table...)
		if _, err := stdout.Write(buf); err != nil {
			return fmt.Errorf("write table: %w", err)
		}
	}
	return nil
}

// describeColumns keeps the columns of the partition view, made once for
// all the groups of one Describe.
type describeColumns struct {
	partitions []Column[PartitionRow]
}

// partitionColumns are the columns of g's partition view: the Kafka
// tool's, TIME-LAG when asked for, the stable-offset columns where an open
// transaction holds the last stable offset below the log end.
func (c *describeColumns) partitionColumns(g *kafka.Group, opts DescribeOptions) []Column[PartitionRow] {
	if opts.TimeLag != nil || StableTrails(g) {
		cols := PartitionColumns(opts.Wide)
		if opts.Verbose {
			cols = VerbosePartitionColumns(cols)
		}
		if opts.TimeLag != nil {
			cols = append(cols, TimeLagColumn(opts.TimeLag, opts.AtLeast))
		}
		if StableTrails(g) {
			cols = append(cols, StableColumns()...)
		}
		return cols
	}
	if c.partitions == nil {
		c.partitions = PartitionColumns(opts.Wide)
		if opts.Verbose {
			c.partitions = VerbosePartitionColumns(c.partitions)
		}
	}
	return c.partitions
}

// groupTable renders g's table for the chosen view, or "" and the note that
// explains why there is none.
func groupTable(g *kafka.Group, opts DescribeOptions, cols *describeColumns) (table, empty string) {
	if g.IsShare() {
		return shareTable(g, opts)
	}
	if g.Type == kafka.TypeStreams {
		return streamsTable(g, opts)
	}
	switch opts.View {
	case Topology:
		return "", fmt.Sprintf("Group '%s' is a %s group: only streams groups have a topology.", format.Sanitize(g.Name), format.Sanitize(string(g.Type)))
	case Members:
		if rows := MemberRows(g); len(rows) > 0 {
			cols := MemberColumns(opts.Wide)
			if opts.Verbose {
				cols = VerboseMemberColumns(cols)
			}
			return TableWith(cols, rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Consumer group '%s' has no members.", format.Sanitize(g.Name))
	case State:
		cols := StateColumns()
		if opts.Verbose {
			cols = VerboseStateColumns(cols)
		}
		return TableWith(cols, []*kafka.Group{g}, opts.layout()), ""
	default:
		if rows := PartitionRows(g); len(rows) > 0 {
			return TableWith(cols.partitionColumns(g, opts), rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Consumer group '%s' has no committed offsets and no assigned partitions.", format.Sanitize(g.Name))
	}
}

func (o DescribeOptions) layout() Layout { return Layout{Wide: o.Wide, Ellipsis: o.Ellipsis} }

func writeNote(w io.Writer, note string) error {
	if err := Print(w, note); err != nil {
		return fmt.Errorf("write note: %w", err)
	}
	return nil
}

// StateNote is what kafka-consumer-groups.sh says on stderr about a group
// before its table: that it has no active members, or that it is
// rebalancing (so the assignment shown may be about to change). It is empty
// for a settled group. The group's name in it is terminal-safe.
func StateNote(g *kafka.Group) string {
	if g.IsShare() {
		return shareStateNote(g)
	}
	if g.Type == kafka.TypeStreams {
		return streamsStateNote(g)
	}
	switch g.State {
	case kafka.StateEmpty:
		return fmt.Sprintf("Consumer group '%s' has no active members.", format.Sanitize(g.Name))
	case kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateAssigning, kafka.StateReconciling:
		return fmt.Sprintf("Warning: Consumer group '%s' is rebalancing.", format.Sanitize(g.Name))
	}
	return ""
}

// List writes `kgroups list`'s table: one row per group, in the order
// given, long names cut as lay says.
func List(w io.Writer, groups []*kafka.Group, lay Layout) error {
	if err := WriteTableWith(w, GroupColumns(), groups, lay); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}
