package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/output"
)

func init() { register(newListCmd) }

// groupStates are the states `list --state` accepts: every state a classic or
// consumer-protocol group can report.
var groupStates = []string{
	kafka.StateStable,
	kafka.StateEmpty,
	kafka.StatePreparingRebalance,
	kafka.StateCompletingRebalance,
	kafka.StateAssigning,
	kafka.StateReconciling,
	kafka.StateDead,
	kafka.StateUnknown,
}

// groupTypes are the values `--type` accepts.
var groupTypes = []kafka.GroupType{kafka.TypeClassic, kafka.TypeConsumer}

// Output formats shared by the read commands.
const (
	formatTable = "table"
	formatJSON  = "json"
)

func newListCmd(a *app) *cobra.Command {
	var states []string
	var typ, format string
	cmd := &cobra.Command{
		Use:   "list [--state S,...] [--type classic|consumer] [-o table|json]",
		Short: "List consumer groups with their state, members and lag",
		Long: `List every consumer group in the cluster, one row per group, sorted by name:
its type (classic or consumer, the KIP-848 protocol), state, assignor, member,
topic and partition counts, total lag and coordinator broker.

kafka-consumer-groups.sh --list prints only names; this prints what you would
otherwise run --describe on every group to learn. It never joins a group.`,
		Example: `  kgroups list
  kgroups list --state Empty,PreparingRebalance
  kgroups list --type consumer -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wantStates, err := parseStates(states, cmd.Flags().Changed("state"))
			if err != nil {
				return err
			}
			wantType, err := parseGroupType(typ)
			if err != nil {
				return err
			}
			format, err := parseFormat(format)
			if err != nil {
				return err
			}
			cl, _, err := a.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer cl.Close()
			snap, err := cl.Poll(cmd.Context())
			if err != nil {
				return fmt.Errorf("list groups: %w", err)
			}
			var groups []*kafka.Group
			for i := range snap.Groups {
				g := &snap.Groups[i]
				if len(wantStates) > 0 && !wantStates[g.State] {
					continue
				}
				if wantType != "" && g.Type != wantType {
					continue
				}
				groups = append(groups, g)
			}
			sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
			if format == formatJSON {
				err = output.JSON(a.stdout, groups)
			} else {
				err = output.List(a.stdout, groups)
			}
			if err != nil {
				return err
			}
			return reportGroupErrors(a.stderr, groups)
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&states, "state", nil, "only groups in these states, comma-separated or repeated ("+strings.Join(groupStates, ", ")+"; any case)")
	fs.StringVar(&typ, "type", "", "only groups of this type: classic or consumer (KIP-848)")
	addFormatFlag(cmd, &format)
	return cmd
}

// addFormatFlag declares -o/--output the same way on every read command.
func addFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVarP(format, "output", "o", formatTable, "output format: table or json")
}

// parseFormat validates -o, so a typo is a usage error rather than a
// silently different output that breaks a script later.
func parseFormat(s string) (string, error) {
	switch f := strings.ToLower(strings.TrimSpace(s)); f {
	case formatTable, formatJSON:
		return f, nil
	}
	return "", usageErrorf("invalid --output %q: accepted values are %s, %s", s, formatTable, formatJSON)
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

// parseGroupType validates --type. Empty means both types.
func parseGroupType(s string) (kafka.GroupType, error) {
	if s == "" {
		return "", nil
	}
	for _, t := range groupTypes {
		if strings.EqualFold(strings.TrimSpace(s), string(t)) {
			return t, nil
		}
	}
	return "", usageErrorf("invalid --type %q: accepted values are %s, %s", s, kafka.TypeClassic, kafka.TypeConsumer)
}

// reportGroupErrors prints each group's own failure (its coordinator did not
// answer, its offsets could not be fetched) after the output, which still
// shows what could be read, and makes the command exit 1 so scripts notice.
func reportGroupErrors(stderr io.Writer, groups []*kafka.Group) error {
	failed := false
	for _, g := range groups {
		if g.Err != nil {
			fmt.Fprintf(stderr, "kgroups: group %q: %v\n", g.Name, g.Err)
			failed = true
		}
	}
	if failed {
		return exitCodeError{code: exitError}
	}
	return nil
}
