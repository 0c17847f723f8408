package main

import (
	"context"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newListCmd) }

// groupStates are the states `list --state` accepts: every state a classic,
// consumer, share or streams group can report.
var groupStates = []string{
	kafka.StateStable,
	kafka.StateEmpty,
	kafka.StatePreparingRebalance,
	kafka.StateCompletingRebalance,
	kafka.StateAssigning,
	kafka.StateReconciling,
	kafka.StateNotReady,
	kafka.StateDead,
	kafka.StateUnknown,
}

// groupTypes are the values `--type` accepts.
var groupTypes = []kafka.GroupType{kafka.TypeClassic, kafka.TypeConsumer, kafka.TypeShare, kafka.TypeStreams}

// listOptions is a validated `kgroups list`.
type listOptions struct {
	// states, when not nil, keeps only groups in these states.
	states map[string]bool
	// types, when not nil, keeps only groups of these types.
	types  map[kafka.GroupType]bool
	format string
	// wide shows long names whole (--wide).
	wide bool
}

func newListCmd(a *app) *cobra.Command {
	var states []string
	var types []string
	var format string
	var wide bool
	cmd := &cobra.Command{
		Use:   "list [--state S,...] [--type classic|consumer|share|streams,...] [--wide] [-o table|json]",
		Short: "List consumer groups with their state, members and lag",
		Long: `List every consumer group in the cluster, one row per group, sorted by name:
its type (classic; consumer, the KIP-848 protocol; share, KIP-932 queues), state, assignor, member,
topic and partition counts, total lag and coordinator broker.

kafka-consumer-groups.sh --list prints only names; this prints what you would
otherwise run --describe on every group to learn. It never joins a group.`,
		Example: `  kgroups list
  kgroups list --state Empty,PreparingRebalance
  kgroups list --type consumer -o json
  kgroups list --type share,consumer`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := listOptions{wide: wide}
			var err error
			if o.states, err = parseStates(states, cmd.Flags().Changed("state")); err != nil {
				return err
			}
			if o.types, err = parseGroupTypes(types, cmd.Flags().Changed("type")); err != nil {
				return err
			}
			if o.format, err = parseFormat(format); err != nil {
				return err
			}
			return runList(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&states, "state", nil, "only groups in these states, comma-separated or repeated ("+strings.Join(groupStates, ", ")+"; any case)")
	fs.StringSliceVar(&types, "type", nil, "only groups of these types, comma-separated or repeated: "+typeNames()+" (any case)")
	addFormatFlag(cmd, &format)
	addWideFlag(cmd, &wide)
	completeFlag(cmd, "state", commaList(groupStates...))
	completeFlag(cmd, "type", commaList(typeNameList()...))
	return cmd
}

func runList(ctx context.Context, a *app, o listOptions) error {
	defer a.oneShot()()
	return a.connected(ctx, nil, func(cl *kafka.Client, _ config.Cluster) error {
		// The poll's error says which step failed ("list groups: ...",
		// "cannot read cluster metadata ...").
		snap, err := cl.Poll(ctx)
		if err != nil {
			return err
		}
		var groups []*kafka.Group
		for i := range snap.Groups {
			g := &snap.Groups[i]
			if o.states != nil && !o.states[g.State] {
				continue
			}
			if o.types != nil && !o.types[g.Type] {
				continue
			}
			groups = append(groups, g)
		}
		sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
		if o.format == formatJSON {
			err = render.JSON(a.stdout, groups)
		} else {
			err = render.List(a.stdout, groups, a.layout(o.wide))
		}
		if err != nil {
			return err
		}
		return reportGroupErrors(a.stderr, groups)
	})
}

// parseStates maps --state values to the canonical state names,
// case-insensitively. Without the flag there is no filter; a flag given with
// no state is a mistake, not "no filter".
func parseStates(in []string, given bool) (map[string]bool, error) {
	if !given {
		return nil, nil
	}
	out := make(map[string]bool, len(in))
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		found := false
		for _, st := range groupStates {
			if strings.EqualFold(s, st) {
				out[st] = true
				found = true
				break
			}
		}
		if !found {
			return nil, usageErrorf("invalid --state %q: accepted values are %s (any case)", s, strings.Join(groupStates, ", "))
		}
	}
	if len(out) == 0 {
		return nil, usageErrorf("--state is empty: accepted values are %s (any case)", strings.Join(groupStates, ", "))
	}
	return out, nil
}

// typeNames lists the accepted --type values.
func typeNames() string { return strings.Join(typeNameList(), ", ") }

// typeNameList are the accepted --type values, for completion.
func typeNameList() []string {
	names := make([]string, len(groupTypes))
	for i, t := range groupTypes {
		names[i] = string(t)
	}
	return names
}

// parseGroupTypes validates --type, like kafka-consumer-groups.sh --type:
// comma-separated or repeated, any case. Without the flag there is no
// filter; a flag given with no type is a mistake.
func parseGroupTypes(in []string, given bool) (map[kafka.GroupType]bool, error) {
	if !given {
		return nil, nil
	}
	out := make(map[kafka.GroupType]bool, len(in))
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		found := false
		for _, t := range groupTypes {
			if strings.EqualFold(s, string(t)) {
				out[t] = true
				found = true
				break
			}
		}
		if !found {
			return nil, usageErrorf("invalid --type %q: accepted values are %s (any case)", s, typeNames())
		}
	}
	if len(out) == 0 {
		return nil, usageErrorf("--type is empty: accepted values are %s (any case)", typeNames())
	}
	return out, nil
}

// reportGroupErrors prints each group's own failure (its coordinator did not
// answer, its offsets could not be fetched) after the output, which still
// shows what could be read, and makes the command exit 1 so scripts notice.
func reportGroupErrors(stderr io.Writer, groups []*kafka.Group) error {
	failed := false
	for _, g := range groups {
		if g.Err != nil {
			_ = render.Printf(stderr, "kgroups: group %q: %v", g.Name, g.Err)
			failed = true
		}
	}
	if failed {
		return exitCodeError{code: exitError}
	}
	return nil
}
