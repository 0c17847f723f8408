package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/simulate"
)

func init() { register(newSimulateCmd) }

func newSimulateCmd(a *app) *cobra.Command {
	var leave []string
	var join int
	var format string
	cmd := &cobra.Command{
		Use:   "simulate GROUP (--leave MEMBER... | --join N) [-o table|json]",
		Short: "Predict what each assignor would move if members left or joined",
		Long: `Predict a classic consumer group's next assignment if the named members
leave (--leave, by member id) or N new members join (--join), under each of
range, roundrobin, sticky and cooperative-sticky, whichever the group uses
now. For each assignor it shows which partitions move, from which member to
which, how many, and the resulting assignment: the difference a sticky
assignor makes is there in numbers.

The prediction runs franz-go's own assignor code offline on the members' real
subscription metadata, as the group leader would; each remaining member keeps
its current partitions as "owned". New members subscribe to the topics the
group consumes and are placed after the existing members (their real ids are
random, so range and roundrobin may order them differently). Nothing is sent
to the group: simulate only reads.

For a consumer-protocol (KIP-848) group the broker computes the assignment,
so simulate shows each member's current and target assignment instead.

-o json prints {"group","change","type","assignors":[{"assignor","moved",
"rounds","moves":[{"topic","partition","from","to"}],"assignment":{member:
[{"topic","partitions"}]},"error"}]}.`,
		Example: `  kgroups simulate orders-app --leave consumer-1-4f9c0e
  kgroups simulate orders-app --join 2 -o json | jq '.assignors[] | {assignor, moved}'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			group, change, format, err := simulateOptions(args, leave, join, cmd.Flags().Changed("join"), format)
			if err != nil {
				return err
			}
			cl, _, err := a.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer cl.Close()

			g, err := readLiveGroup(cmd, cl, group)
			if err != nil {
				return err
			}
			if g.Type == kafka.TypeConsumer {
				for _, id := range change.Leave {
					if _, ok := g.Member(id); !ok {
						return fmt.Errorf("member %q is not in group %q; its members are: %s", id, g.Name, simulateMemberList(g))
					}
				}
				if format == formatJSON {
					return simulate.WriteConsumerJSON(a.stdout, g, change.String())
				}
				return simulate.WriteConsumerTable(a.stdout, g, change.String())
			}
			if g.State != kafka.StateStable {
				fmt.Fprintf(a.stderr, "kgroups: note: group %q is %s, not Stable: the assignment the prediction starts from may be changing\n", g.Name, g.State)
			}
			counts, err := rebalance.PartitionCounts(cmd.Context(), cl, rebalance.Subscriptions(g))
			if err != nil {
				return err
			}
			sim, err := rebalance.Simulate(g, counts, change)
			if err != nil {
				return err
			}
			if format == formatJSON {
				err = simulate.WriteJSON(a.stdout, g, sim)
			} else {
				err = simulate.WriteTable(a.stdout, g, sim)
			}
			if err != nil {
				return err
			}
			var failed []string
			for _, p := range sim.Predictions {
				if p.Err != nil {
					failed = append(failed, p.Assignor+": "+p.Err.Error())
				}
			}
			if len(failed) > 0 {
				return fmt.Errorf("some assignors could not balance the group: %s", strings.Join(failed, "; "))
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&leave, "leave", nil, "member ids that leave, comma-separated or repeated")
	fs.IntVar(&join, "join", 0, fmt.Sprintf("number of new members that join (1 to %d)", rebalance.MaxJoin))
	addFormatFlag(cmd, &format)
	return cmd
}

// simulateOptions validates simulate's arguments; every mistake is a usage
// error that says what is accepted.
func simulateOptions(args, leave []string, join int, joinGiven bool, format string) (string, rebalance.Change, string, error) {
	var ch rebalance.Change
	switch {
	case len(args) != 1:
		return "", ch, "", usageErrorf("simulate needs exactly one group name, got %d", len(args))
	case args[0] == "":
		return "", ch, "", usageErrorf("a group name cannot be empty")
	case len(leave) > 0 && joinGiven:
		return "", ch, "", usageErrorf("give either --leave MEMBER... or --join N, not both")
	case len(leave) == 0 && !joinGiven:
		return "", ch, "", usageErrorf("say what changes: --leave MEMBER... (member ids) or --join N")
	case joinGiven && (join < 1 || join > rebalance.MaxJoin):
		return "", ch, "", usageErrorf("invalid --join %d: give a number of new members from 1 to %d", join, rebalance.MaxJoin)
	}
	for _, id := range leave {
		if strings.TrimSpace(id) == "" {
			return "", ch, "", usageErrorf("--leave: a member id cannot be empty")
		}
	}
	f, err := parseFormat(format)
	if err != nil {
		return "", ch, "", err
	}
	ch.Leave, ch.Join = uniqueNames(leave), join
	return args[0], ch, f, nil
}

// readLiveGroup polls one group and refuses one that does not exist or could
// not be read, so that no command acts on a partial picture.
func readLiveGroup(cmd *cobra.Command, cl *kafka.Client, name string) (*kafka.Group, error) {
	snap, err := cl.PollGroups(cmd.Context(), name)
	if err != nil {
		return nil, fmt.Errorf("read group %q: %w", name, err)
	}
	g, ok := snap.Group(name)
	if !ok || absent(g) {
		return nil, fmt.Errorf("group %q not found", name)
	}
	if g.Err != nil {
		return nil, fmt.Errorf("read group %q: %w", name, g.Err)
	}
	return g, nil
}

func simulateMemberList(g *kafka.Group) string {
	if len(g.Members) == 0 {
		return "(none)"
	}
	ids := make([]string, len(g.Members))
	for i := range g.Members {
		ids[i] = g.Members[i].MemberID
	}
	return strings.Join(ids, ", ")
}
