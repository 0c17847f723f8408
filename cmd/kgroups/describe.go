package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newDescribeCmd) }

// describeOptions is a validated `kgroups describe`.
type describeOptions struct {
	names   []string // the groups asked for, without repeats; nil with all
	all     bool
	view    render.View
	wide    bool
	verbose bool
	timeLag bool
	format  string
	// from reads a recording instead of the cluster (--from, --at).
	from fromFlags
}

func newDescribeCmd(a *app) *cobra.Command {
	var all, members, state, topology, wide, verbose, timeLag bool
	var from fromFlags
	var format string
	var b64 []string
	cmd := &cobra.Command{
		Use:   "describe (GROUP... | --all-groups) [--members | --state | --topology | --time-lag] [--verbose] [--wide] [-o table|json]",
		Short: "Show groups' partitions, offsets and lag, members, or state",
		Long: `Describe consumer groups the way kafka-consumer-groups.sh --describe does,
with the same columns and row order, so eyes and scripts carry over:

  (default)  GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
  --members  GROUP CONSUMER-ID GROUP-INSTANCE-ID HOST CLIENT-ID #PARTITIONS
  --state    GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS LEADER

--state adds LEADER after the Kafka tool's columns: the client implementation
kgroups infers a classic group's leader runs, which decides how its assignor
breaks ties ("-" when unknown, or when the broker assigns).

Streams groups (KIP-1071) follow kafka-streams-groups.sh instead:

  (default)  GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG
  --members  GROUP MEMBER PROCESS CLIENT-ID ASSIGNMENTS MEMBER-PROTOCOL MEMBER-EPOCH
  --state    GROUP COORDINATOR (ID) STATE GROUP-EPOCH TARGET-ASSIGNMENT-EPOCH #MEMBERS TOPOLOGY-EPOCH
  --topology GROUP SUBTOPOLOGY ROLE TOPIC PARTITIONS

ASSIGNMENTS lists tasks as subtopology:[partitions] ("ACTIVE: 0:[0,1] 1:[0];
STANDBY: 0:[2]"), then TARGET-ACTIVE, TARGET-STANDBY or TARGET-WARMUP for a
kind whose target differs. A group of a type kgroups does not know yet is
reported on stderr ("kgroups cannot describe groups of type X yet") and makes
the command exit 1.

Partition rows list each member's partitions, largest assignment first, then
committed partitions no member owns. A partition without a committed offset
shows "-" for CURRENT-OFFSET and LAG. Notes such as "has no active members"
go to stderr, so stdout stays parseable. --wide adds LOG-START-OFFSET (or
ASSIGNMENT with --members) after the Kafka columns.

--verbose adds the columns kafka-consumer-groups.sh --verbose adds, where it
adds them: LEADER-EPOCH after PARTITION; with --members CURRENT-EPOCH
CURRENT-ASSIGNMENT TARGET-EPOCH TARGET-ASSIGNMENT after #PARTITIONS
(assignments as topic:0,1;other:2, epochs "-" in a classic group); with
--state GROUP-EPOCH TARGET-ASSIGNMENT-EPOCH before #MEMBERS.

--time-lag adds how far behind each partition is in time: the age of the
oldest message the group has not consumed, read from the record at its
committed offset (one record per lagging partition, read without joining
any group). It shows as a TIME-LAG column after the others, marked "=" as
read exactly (=12s, =3m04s, =2h05m, =3d04h; 0s when caught up; "-" without
a commit), and as timeLagSeconds in JSON (null when unknown).

-o json prints every group in full ({"groups":[...]}) whichever view is
chosen. Classic and consumer-protocol (KIP-848) groups both show. describe
never joins a group, so it does not disturb the members it reports.

A group that does not exist is reported on stderr and makes the command exit
1; the groups that exist are still printed.

--from FILE describes a recording (kgroups record) instead of the cluster:
the last poll, or with --at TIME the last poll at or before TIME. Its
--time-lag is each partition's time lag as judged at that poll, as the UI
showed it then (exact where the recorder read the record at the commit,
else interpolated or a lower bound).`,
		Example: `  kgroups describe orders
  kgroups describe orders payments --members
  kgroups describe --all-groups --state
  kgroups describe orders -o json | jq '.groups[0].totalLag'
  kgroups describe orders --time-lag`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, b64)
			if err != nil {
				return err
			}
			o, err := parseDescribe(args, all, members, state, wide, timeLag, format)
			if err == nil && topology {
				err = withTopology(&o, members, state, timeLag)
			}
			o.verbose = verbose
			if err == nil {
				err = from.check()
			}
			if err != nil {
				return err
			}
			o.from = from
			return runDescribe(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&all, "all-groups", false, "describe every group in the cluster")
	fs.BoolVar(&members, "members", false, "one row per member instead of per partition")
	fs.BoolVar(&state, "state", false, "one row per group: coordinator, assignor, state and member count")
	fs.BoolVar(&topology, "topology", false, "streams groups: one row per topic of the topology (source, repartition, changelog)")
	fs.BoolVar(&wide, "wide", false, fmt.Sprintf("add kgroups' extra columns after the Kafka tool's, and show long ids and hosts whole (otherwise cut at %d cells, hosts and client ids at %d)", columns.IDMax, columns.HostMax))
	fs.BoolVar(&verbose, "verbose", false, "add kafka-consumer-groups.sh --verbose's columns where it adds them: LEADER-EPOCH; with --members each member's epochs and current and target assignments; with --state the group and target assignment epochs")
	addGroupBase64Flag(cmd, &b64, true)
	fs.BoolVar(&timeLag, "time-lag", false, "add each partition's time lag, read from the record at its committed offset")
	addFormatFlag(cmd, &format)
	addFromFlags(cmd, &from, "the groups as that poll saw them, --time-lag as judged then")
	cmd.ValidArgsFunction = a.completeGroups(anyGroup, true)
	return cmd
}

// parseDescribe validates describe's arguments: which groups, which view
// and which format. Every conflict is a usage error that says what is
// accepted.
func parseDescribe(args []string, all, members, state, wide, timeLag bool, format string) (describeOptions, error) {
	o := describeOptions{all: all, wide: wide, timeLag: timeLag}
	switch {
	case all && len(args) > 0:
		return o, usageErrorf("give either group names or --all-groups, not both")
	case !all && len(args) == 0:
		return o, usageErrorf("describe needs one or more group names, or --all-groups")
	case members && state:
		return o, usageErrorf("--members and --state are different views: give at most one")
	case timeLag && (members || state):
		return o, usageErrorf("--time-lag is per partition: it does not go with --members or --state")
	}
	var err error
	if o.names, err = groupNames(args); err != nil {
		return o, err
	}
	if o.format, err = parseFormat(format); err != nil {
		return o, err
	}
	switch {
	case members:
		o.view = render.Members
	case state:
		o.view = render.State
	}
	return o, nil
}

func runDescribe(ctx context.Context, a *app, o describeOptions) error {
	defer a.oneShot()()
	if o.from.file != "" {
		return describeFrom(a, o)
	}
	return a.connected(ctx, nil, func(cl *kafka.Client, _ config.Cluster) error {
		var snap *kafka.Snapshot
		var err error
		if o.all {
			snap, err = cl.Poll(ctx)
		} else {
			snap, err = cl.PollGroups(ctx, o.names...)
		}
		if err != nil {
			return fmt.Errorf("describe groups: %w", err)
		}
		timeLags := func(groups []*kafka.Group) (render.TimeLagFunc, []string, error) {
			return exactTimeLags(ctx, cl, groups)
		}
		similar := func(missing []string) map[string][]string { return similarGroups(ctx, cl, missing) }
		return writeDescribe(a, o, snap, timeLags, similar)
	})
}

// writeDescribe prints the groups of snap that o names: a poll of the
// cluster, or one of a recording. timeLags gives the TIME-LAG column's
// values (--time-lag) and the errors to note; similar suggests names for
// the groups not found.
func writeDescribe(a *app, o describeOptions, snap *kafka.Snapshot, timeLags func([]*kafka.Group) (render.TimeLagFunc, []string, error), similar func([]string) map[string][]string) error {
	{
		var err error
		var groups []*kafka.Group
		var missing []string
		if o.all {
			for i := range snap.Groups {
				if g := &snap.Groups[i]; !absent(g) {
					groups = append(groups, g)
				}
			}
		} else {
			for _, name := range o.names {
				g, ok := snap.Group(name)
				if !ok || absent(g) {
					missing = append(missing, name)
					continue
				}
				groups = append(groups, g)
			}
		}
		groups, unknown := describable(groups)

		opts := render.DescribeOptions{View: o.view, Wide: o.wide, Verbose: o.verbose, AtLeast: a.atLeast(), Ellipsis: a.layout(o.wide).Ellipsis}
		var timeLagErrs []string
		if o.timeLag {
			opts.TimeLag, timeLagErrs, err = timeLags(groups)
			if err != nil {
				return fmt.Errorf("describe groups: time lag: %w", err)
			}
		}

		if o.format == formatJSON {
			err = render.JSONWith(a.stdout, groups, render.JSONOptions{TimeLag: opts.TimeLag})
		} else {
			out, errw, flush := pairedStreams(a.stdout, a.stderr)
			err = render.Describe(out, errw, groups, opts)
			if ferr := flush(); err == nil && ferr != nil {
				err = fmt.Errorf("write table: %w", ferr)
			}
		}
		if err != nil {
			return err
		}
		like := similar(missing)
		for _, name := range missing {
			a.notef("kgroups: %s", kafka.GroupNotFound(name, like[name]))
		}
		for _, g := range unknown {
			a.notef("%s", render.CannotDescribe(g))
		}
		for _, e := range timeLagErrs {
			a.notef("kgroups: %s", e)
		}
		if err := reportGroupErrors(a.stderr, groups); err != nil {
			return err
		}
		if len(missing) > 0 || len(timeLagErrs) > 0 || len(unknown) > 0 {
			return exitCodeError{code: exitError}
		}
		return nil
	}
}

// absent reports whether a listed group is really a tombstone: Dead, with no
// members, commits or error. kafka-consumer-groups.sh says such a group does
// not exist, and so does kgroups.
func absent(g *kafka.Group) bool {
	return g.State == kafka.StateDead && len(g.Members) == 0 && len(g.Partitions) == 0 && g.Err == nil
}

// describeClock is the clock time lags are measured against; tests pin it
// so that a time lag read from a record of known timestamp is exact.
var describeClock = time.Now

// maxListedErrors bounds a list of errors on stderr, as everywhere in
// kgroups: the first 20, then "and N more".
const maxListedErrors = 20

// exactTimeLags reads the record at every lagging partition's committed
// offset and returns the time lag of each partition of groups, measured
// when the reads finished. errs name the partitions that could not be read,
// one line per group and partition, for stderr: the first maxListedErrors,
// then "and N more".
func exactTimeLags(ctx context.Context, cl *kafka.Client, groups []*kafka.Group) (render.TimeLagFunc, []string, error) {
	var parts []kafka.PartitionOffsets
	for _, g := range groups {
		parts = append(parts, g.Partitions...)
	}
	recs, err := cl.CommittedTimestamps(ctx, parts)
	if err != nil {
		return nil, nil, err
	}
	now := describeClock()
	var errs []string
	more := 0
	for _, g := range groups {
		for i := range g.Partitions {
			p := &g.Partitions[i]
			if r, ok := recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}]; ok && r.Err != nil {
				if len(errs) == maxListedErrors {
					more++
					continue
				}
				errs = append(errs, fmt.Sprintf("group %q: time lag: %v", g.Name, r.Err))
			}
		}
	}
	if more > 0 {
		errs = append(errs, fmt.Sprintf("and %d more", more))
	}
	return func(_ *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag {
		return lag.ExactTimeLag(p, recs, now)
	}, errs, nil
}

// withTopology turns a validated describe into describe --topology, which
// goes with no other view.
func withTopology(o *describeOptions, members, state, timeLag bool) error {
	if members || state || timeLag {
		return usageErrorf("--topology is a view of its own: it does not go with --members, --state or --time-lag")
	}
	o.view = render.Topology
	return nil
}

// describable splits groups into those kgroups can describe and those of a
// type it does not know yet, which describe reports instead.
func describable(groups []*kafka.Group) (ok, unknown []*kafka.Group) {
	for _, g := range groups {
		if g.Type.Known() {
			ok = append(ok, g)
		} else {
			unknown = append(unknown, g)
		}
	}
	return ok, unknown
}
