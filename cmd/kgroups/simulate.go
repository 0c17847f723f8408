package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newSimulateCmd) }

// simulateOptions is a validated `kgroups simulate`.
type simulateOptions struct {
	group  string
	change rebalance.Change
	format string
	// wide shows long ids whole (--wide).
	wide bool
	// assignors keeps only the predictions of these assignors
	// (--assignor); none keeps every one.
	assignors []string
	// from reads the group from a recording (--from, --at).
	from fromFlags
}

func newSimulateCmd(a *app) *cobra.Command {
	var leave []string
	var from fromFlags
	var join int
	var format string
	var wide bool
	var b64, assignors []string
	cmd := &cobra.Command{
		Use:   "simulate GROUP (--leave MEMBER... | --join N) [--assignor NAME...] [--wide] [-o table|json]",
		Short: "Predict what each assignor would move if members left or joined",
		Long: `Predict a classic consumer group's next assignment if the named members
leave (--leave) or N new members join (--join), under each of
range, roundrobin, sticky and cooperative-sticky, whichever the group uses
now. For each assignor it shows which partitions move, from which member to
which, how many, and the resulting assignment: the difference a sticky
assignor makes is there in numbers.

--leave takes a member id, or a client id or instance id that names exactly
one member of the group; a name that fits several members is refused with
the list of them (exit 2), so nothing is simulated for the wrong member.

The prediction runs the assignor code the group's leader runs, offline, on
the members' real subscription metadata: franz-go's own balancers for the
Java client and franz-go, kgroups' models for librdkafka and kafkajs. Each
remaining member keeps its current partitions as "owned". Nothing is sent to
the group: simulate only reads.

Joiners: a new member's id is issued by the coordinator when it joins (its
client id, a dash and a random suffix) and every modelled assignor orders
members by id, so simulate runs every place a joiner's id can sort to among
the remaining members' ids (a group of static members: every place among
their instance ids, except for sarama, kafka-go and kafka-python, which order
static members by member id too; a group of both: both, never every
combination); past ` + fmt.Sprint(rebalance.MaxPlaces) + ` places, ` + fmt.Sprint(rebalance.MaxPlaces) + ` of them, evenly spaced from every joiner
first to every joiner last, and NOTE counts both ("64 of 1001 places run").
Joiners subscribe to the topics the group consumes and own nothing. When the
places (or a leader that breaks ties its own way) give different results, the
row reads as a range (MOVED "3–5"), every different result is shown, best
first ("range, result 2 of 3: ..."), and it is never exact.

CONFIDENCE: exact only when every input that decides the outcome is known:
the leader's implementation is identified and modelled, every place of the
joiners gives one result, and no tie is left to the leader (franz-go's
sticky assignors break ties at random, so those rows are approximate; the
Java client's are modelled for a group of one subscription). The leader's implementation is
read from each member's evidence: its metadata's layout first, then a
client's default client id (the Java client's names the group:
consumer-<group>-<n>); a group with any member not identified has an
unknown leader. A client id is the user's to set, so it never makes a row
exact alone: where it decided, or where the layout is one two clients send
(sarama's is also the Java client 2.4 to 3.3's), a row is exact only when
every client that may lead predicts the same results. kafka-go rows are
approximate (its leader takes partitions in the order the broker lists
them), and so are sarama sticky rows (it walks Go maps). NOTE says why a
row is not exact.

For a consumer-protocol (KIP-848) group the broker computes the assignment:
simulate shows each member's current and target assignment, then predicts
the broker's next target under Kafka 4.2's server assignors, uniform and
range (the group's own first). Range is exact, but for a joiner's place
among the member ids; uniform needs the topics' ids (read with the group)
and is modelled for members that share one subscription.

-o json prints {"group","change","type","leader","assignors":[{"assignor",
"impl","confidence","note","moved","rounds","movedByProcess","rejoined",
"moves":[{"topic","partition","from","to"}],"assignment":{member:
[{"topic","partitions"}]},"places","placesOf","results","worst","error"}]}:
the figures are the best result, "results" every different result, best
first, each {"moved","rounds","movedByProcess","rejoined","moves",
"assignment"}, "worst" the last of them (null when every run agrees), and
"placesOf" the exact number of places (it may not fit 64 bits).

--from FILE predicts from a recording (kgroups record) instead: the group as
its last poll saw it (or the last at or before --at TIME), with the
partition counts that poll read. A redacted recording has no join metadata:
its classic groups cannot be simulated.`,
		Example: `  kgroups simulate orders-app --leave consumer-1-4f9c0e
  kgroups simulate orders-app --leave billing-worker-3     # a client id or instance id
  kgroups simulate orders-app --join 2 -o json | jq '.assignors[] | {assignor, moved}'
  kgroups simulate orders-app --join 1 --assignor cooperative-sticky`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, b64)
			if err != nil {
				return err
			}
			o, err := parseSimulate(args, leave, join, cmd.Flags().Changed("join"), format)
			if err != nil {
				return err
			}
			o.wide = wide
			if o.assignors, err = parseAssignors(assignors); err != nil {
				return err
			}
			if err := from.check(); err != nil {
				return err
			}
			o.from = from
			return runSimulate(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&leave, "leave", nil, "members that leave, by member id, or by a client id or instance id that names one member; comma-separated or repeated")
	fs.IntVar(&join, "join", 0, fmt.Sprintf("number of new members that join (1 to %d)", rebalance.MaxJoin))
	fs.StringSliceVar(&assignors, "assignor", nil, "show only these assignors' predictions ("+strings.Join(simAssignors(), ", ")+"); comma-separated or repeated")
	addFormatFlag(cmd, &format)
	addWideFlag(cmd, &wide)
	addGroupBase64Flag(cmd, &b64, false)
	addFromFlags(cmd, &from, "the group as that poll saw it, with its partition counts")
	cmd.ValidArgsFunction = a.completeGroups(supports(kafka.ActionSimulate), false)
	completeFlag(cmd, "leave", a.completeMembers(leavingField))
	completeFlag(cmd, "join", fixed("1", "2", "3"))
	completeFlag(cmd, "assignor", fixed(
		rebalance.AssignorRange+"\teager: a contiguous range of each topic per member",
		rebalance.AssignorRoundRobin+"\teager: partitions dealt out one by one",
		rebalance.AssignorSticky+"\teager: keeps owners where balance allows",
		rebalance.AssignorCooperativeSticky+"\tincremental: moves only what balance needs"))
	return cmd
}

// simAssignors are the names --assignor accepts: the classic assignors
// and the broker's uniform (KIP-848 groups; range is both).
func simAssignors() []string {
	out := slices.Clone(rebalance.Assignors)
	for _, n := range rebalance.ServerAssignors {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// checkAssignors refuses, once the group's type is known, an --assignor
// name that type has no prediction for (uniform for a classic group;
// roundrobin and the sticky ones for a KIP-848 group).
func checkAssignors(g *kafka.Group, names []string) error {
	valid := rebalance.Assignors
	if g.Type == kafka.TypeConsumer {
		valid = rebalance.ServerAssignors
	}
	for _, n := range names {
		if !slices.Contains(valid, n) {
			return usageErrorf("invalid --assignor %q: give one of %s", n, strings.Join(valid, ", "))
		}
	}
	return nil
}

// parseAssignors validates --assignor: each name one of the assignors
// simulate predicts, each once.
func parseAssignors(names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !slices.Contains(simAssignors(), n) {
			return nil, usageErrorf("invalid --assignor %q: give one of %s", n, strings.Join(simAssignors(), ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// keepAssignors drops the predictions of assignors not in names (all are
// kept when names is empty), the group's own rows included.
func keepAssignors(sim *rebalance.Simulation, names []string) {
	if len(names) == 0 {
		return
	}
	sim.Predictions = slices.DeleteFunc(sim.Predictions, func(p rebalance.Prediction) bool {
		return !slices.Contains(names, p.Assignor)
	})
}

// parseSimulate validates simulate's arguments; every mistake is a usage
// error that says what is accepted.
func parseSimulate(args, leave []string, join int, joinGiven bool, format string) (simulateOptions, error) {
	var o simulateOptions
	switch {
	case len(args) != 1:
		return o, usageErrorf("simulate needs exactly one group name, got %d", len(args))
	case args[0] == "":
		return o, usageErrorf("a group name cannot be empty")
	case len(leave) > 0 && joinGiven:
		return o, usageErrorf("give either --leave MEMBER... or --join N, not both")
	case len(leave) == 0 && !joinGiven:
		return o, usageErrorf("say what changes: --leave MEMBER... (member ids, or client or instance ids) or --join N")
	case joinGiven && (join < 1 || join > rebalance.MaxJoin):
		return o, usageErrorf("invalid --join %d: give a number of new members from 1 to %d", join, rebalance.MaxJoin)
	}
	for _, id := range leave {
		if strings.TrimSpace(id) == "" {
			return o, usageErrorf("--leave: a member id cannot be empty")
		}
	}
	var err error
	if o.format, err = parseFormat(format); err != nil {
		return o, err
	}
	o.group, o.change.Leave, o.change.Join = args[0], uniqueNames(leave), join
	return o, nil
}

func runSimulate(ctx context.Context, a *app, o simulateOptions) error {
	if o.from.file != "" {
		return simulateFrom(a, o)
	}
	return a.connected(ctx, nil, func(cl *kafka.Client, _ config.Cluster) error {
		g, ids, err := readGroupTopicIDs(ctx, cl, o.group)
		if err != nil {
			return err
		}
		counts := func(topics []string) (map[string]int32, error) {
			return rebalance.PartitionCounts(ctx, cl, topics)
		}
		return simulateGroup(a, o, g, ids, counts)
	})
}

// simulateGroup predicts g's next assignment and prints it: g as the
// cluster has it now, or as a recording had it. counts gives the
// partition counts of the topics the members subscribe to.
func simulateGroup(a *app, o simulateOptions, g *kafka.Group, ids map[string]kafka.TopicID, partitionCounts func([]string) (map[string]int32, error)) error {
	{
		var err error
		if err := g.Type.Check(g.Name, kafka.ActionSimulate); err != nil {
			return err
		}
		if o.change.Leave, err = resolveLeaving(g, o.change.Leave); err != nil {
			return err
		}
		if err := checkAssignors(g, o.assignors); err != nil {
			return err
		}
		if g.Type == kafka.TypeConsumer {
			// The broker's target first; then, when the group can be
			// simulated, what its assignors would decide next.
			var sim *rebalance.Simulation
			var simErr error
			counts, err := partitionCounts(rebalance.Subscriptions(g))
			if err != nil {
				return err
			}
			if sim, simErr = rebalance.SimulateWithTopicIDs(g, counts, ids, o.change); simErr == nil {
				keepAssignors(sim, o.assignors)
			}
			if o.format == formatJSON {
				return render.TargetsJSON(a.stdout, g, o.change.String(), sim, simErr)
			}
			return render.Targets(a.stdout, g, o.change.String(), a.layout(o.wide), sim, simErr)
		}
		if g.State != kafka.StateStable {
			a.notef("kgroups: note: group %q is %s, not Stable: the assignment the prediction starts from may be changing", g.Name, g.State)
		}
		counts, err := partitionCounts(rebalance.Subscriptions(g))
		if err != nil {
			return err
		}
		sim, err := rebalance.Simulate(g, counts, o.change)
		if err != nil {
			return err
		}
		keepAssignors(sim, o.assignors)
		if o.format == formatJSON {
			err = render.SimulationJSON(a.stdout, g, sim)
		} else {
			err = render.Simulation(a.stdout, g, sim, a.layout(o.wide))
		}
		if err != nil {
			return err
		}
		var failed []string
		for _, p := range sim.Predictions {
			var unmodelled *rebalance.UnmodelledError
			if p.Err != nil && !errors.As(p.Err, &unmodelled) {
				failed = append(failed, p.Assignor+": "+p.Err.Error())
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("some assignors could not balance the group: %s", strings.Join(failed, "; "))
		}
		return nil
	}
}

// readGroup polls one group and refuses one that does not exist or could
// not be read, so that no command acts on a partial picture.
func readGroup(ctx context.Context, cl *kafka.Client, name string) (*kafka.Group, error) {
	g, _, err := readGroupTopicIDs(ctx, cl, name)
	return g, err
}

// readGroupTopicIDs is readGroup with the topic ids the poll's metadata
// gave (nil from a broker before 2.8).
func readGroupTopicIDs(ctx context.Context, cl *kafka.Client, name string) (*kafka.Group, map[string]kafka.TopicID, error) {
	snap, err := cl.PollGroups(ctx, name)
	if err != nil {
		return nil, nil, fmt.Errorf("read group %q: %w", name, err)
	}
	g, ok := snap.Group(name)
	if !ok || absent(g) {
		return nil, nil, groupNotFound(ctx, cl, name)
	}
	if g.Err != nil {
		return nil, nil, fmt.Errorf("read group %q: %w", name, g.Err)
	}
	return g, snap.TopicIDs, nil
}

// resolveLeaving turns each --leave name (a member id, or a client id or
// instance id that names exactly one member) into its member id. A name
// that fits several members is a usage error (exit 2) listing them; one
// that fits none is an error (exit 1) listing the group's members.
func resolveLeaving(g *kafka.Group, names []string) ([]string, error) {
	ids := make([]string, 0, len(names))
	for _, name := range names {
		id, err := rebalance.ResolveMember(g, name)
		var amb *rebalance.AmbiguousMemberError
		switch {
		case errors.As(err, &amb):
			return nil, usageErrorf("--leave %s", err)
		case err != nil:
			return nil, err
		}
		ids = append(ids, id)
	}
	return uniqueNames(ids), nil
}
