package rebalance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// recorded is any fixture file under testdata/<impl>/: either one
// membership change (before, after, and the member that joined or left:
// the librdkafka and franz-go form) or one snapshot of a scenario
// (members: the kafkajs form, whose files in name order are the
// scenario's steps).
type recorded struct {
	Group      string           `json:"group"`
	Protocol   string           `json:"protocol"`
	Partitions map[string]int32 `json:"partitions"`
	Join       string           `json:"join"`
	Leave      string           `json:"leave"`
	Before     []rdkMember      `json:"before"`
	After      []rdkMember      `json:"after"`
	ClientIDs  string           `json:"client_ids"`
	Scenario   string           `json:"scenario"`
	Members    []rdkMember      `json:"members"`
	// Type is "consumer" for a KIP-848 group (testdata/java-kip848),
	// whose members are in BeforeGroup and AfterGroup as
	// ConsumerGroupDescribe reported them; empty for a classic group.
	Type        string          `json:"type"`
	BeforeGroup *kip848Snapshot `json:"before_group"`
	AfterGroup  *kip848Snapshot `json:"after_group"`
	// TopicIDs are a KIP-848 recording's topic ids (base64), by name.
	TopicIDs map[string]string `json:"topic_ids"`
}

// scoreCase is one recorded membership change to predict.
type scoreCase struct {
	name          string
	group         string
	protocol      string
	partitions    map[string]int32
	before, after []rdkMember
	// kip848 holds a KIP-848 group's change instead of before and after,
	// and topicIDs its topics' ids when they were recorded.
	kip848   *[2]kip848Snapshot
	topicIDs map[string]kafka.TopicID
}

// loadScoreCases reads every fixture directory under testdata, so that a
// new implementation's recordings are scored as soon as they land.
func loadScoreCases(t *testing.T) []scoreCase {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []scoreCase
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(paths)
		var prev *recorded
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := new(recorded)
			if err := json.Unmarshal(b, f); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			name := filepath.Join(filepath.Base(dir), filepath.Base(p))
			switch {
			case f.Type == "consumer" && f.BeforeGroup != nil && f.AfterGroup != nil:
				ids, err := kip848TopicIDs(f.TopicIDs)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				out = append(out, scoreCase{name: name, group: f.Group, protocol: f.Protocol, partitions: f.Partitions, kip848: &[2]kip848Snapshot{*f.BeforeGroup, *f.AfterGroup}, topicIDs: ids})
			case len(f.Before) > 0 && len(f.After) > 0:
				out = append(out, scoreCase{name: name, group: f.Group, protocol: f.Protocol, partitions: f.Partitions, before: f.Before, after: f.After})
			case len(f.Members) > 0:
				if prev != nil && prev.Group == f.Group {
					out = append(out, scoreCase{name: name, group: f.Group, protocol: f.Protocol, partitions: f.Partitions, before: prev.Members, after: f.Members})
				}
				prev = f
			default:
				t.Fatalf("%s is neither a recorded change (before, after) nor a snapshot (members)", p)
			}
		}
	}
	return out
}

// recordedGroup is the members of group as kgroups' snapshot holds them;
// name (the fixture) is for errors.
func recordedGroup(t *testing.T, name, group, protocol string, ms []rdkMember) *kafka.Group {
	t.Helper()
	g := &kafka.Group{Name: group, Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: protocol}
	for _, rm := range ms {
		m := kafka.Member{MemberID: rm.MemberID, InstanceID: rm.InstanceID, ClientID: rm.ClientID, Host: rm.Host, JoinMetadata: rm.Metadata}
		meta, _, err := ReadMemberMetadata(rm.Metadata)
		if err != nil {
			t.Fatalf("%s: member %s metadata: %v", name, rm.MemberID, err)
		}
		m.Subscribed = uniqueSorted(meta.Topics)
		a := kmsg.NewConsumerMemberAssignment()
		if err := a.ReadFrom(rm.Assignment); err != nil {
			t.Fatalf("%s: member %s assignment: %v", name, rm.MemberID, err)
		}
		for _, tp := range a.Topics {
			m.Assignment = append(m.Assignment, kafka.TopicPartitions{Topic: tp.Topic, Partitions: tp.Partitions})
		}
		m.Assignment = kafka.MergeAssignment(m.Assignment)
		g.Members = append(g.Members, m)
	}
	return g
}

// kip848Group is a recorded KIP-848 group as kgroups' snapshot holds it.
func kip848Group(group string, rg kip848Snapshot) *kafka.Group {
	g := &kafka.Group{Name: group, Type: kafka.TypeConsumer, ProtocolType: "consumer", State: rg.State, Assignor: rg.Assignor,
		GroupEpoch: rg.Epoch, AssignmentEpoch: rg.AssignmentEpoch}
	for _, rm := range rg.Members {
		g.Members = append(g.Members, kafka.Member{MemberID: rm.MemberID, InstanceID: rm.InstanceID, ClientID: rm.ClientID, Host: rm.Host,
			MemberEpoch: rm.MemberEpoch, Subscribed: rm.Subscribed, Assignment: topicPartitions(rm.Assigned), Target: topicPartitions(rm.Target)})
	}
	return g
}

// matches reports whether an outcome is what the group really settled on:
// every member that stayed has its settled partitions, and the joiners
// between them hold the settled joiners' sets.
func matches(o PlaceOutcome, settled *kafka.Group, joiners []string) bool {
	var want, got []string
	for _, m := range settled.Members {
		k := assignmentKey(nonEmpty(m.Assignment))
		if _, ok := o.Assignment[m.MemberID]; ok {
			if assignmentKey(nonEmpty(o.Assignment[m.MemberID])) != k {
				return false
			}
			continue
		}
		want = append(want, k)
	}
	for _, id := range joiners {
		got = append(got, assignmentKey(nonEmpty(o.Assignment[id])))
	}
	slices.Sort(want)
	slices.Sort(got)
	return len(o.Assignment) == len(settled.Members) && slices.Equal(want, got)
}

func nonEmpty(tps []kafka.TopicPartitions) []kafka.TopicPartitions {
	return slices.DeleteFunc(slices.Clone(tps), func(tp kafka.TopicPartitions) bool { return len(tp.Partitions) == 0 })
}

// TestScoreRecordedFixtures is the scoring matrix: every recorded
// membership change of every implementation (testdata/<impl>/) is
// simulated from the group before it, and the row of the group's own
// assignor is compared with what the clients settled on. An exact row
// that is wrong fails the test; the counts of right and wrong rows per
// confidence are logged (go test -run TestScoreRecordedFixtures -v).
func TestScoreRecordedFixtures(t *testing.T) {
	cases := loadScoreCases(t)
	if len(cases) == 0 {
		t.Fatal("no recorded fixtures")
	}
	type tally struct{ right, wrong int }
	counts := map[Confidence]*tally{ConfidenceExact: {}, ConfidenceApproximate: {}, ConfidenceUnknown: {}}
	kip848 := 0
	for _, c := range cases {
		var g, settled *kafka.Group
		if c.kip848 != nil {
			g, settled = kip848Group(c.group, c.kip848[0]), kip848Group(c.group, c.kip848[1])
		} else {
			g = recordedGroup(t, c.name, c.group, c.protocol, c.before)
			settled = recordedGroup(t, c.name, c.group, c.protocol, c.after)
		}
		var change Change
		for _, m := range g.Members {
			if _, ok := settled.Member(m.MemberID); !ok {
				change.Leave = append(change.Leave, m.MemberID)
			}
		}
		for _, m := range settled.Members {
			if _, ok := g.Member(m.MemberID); !ok {
				change.Join++
			}
		}
		if (change.Join > 0) == (len(change.Leave) > 0) {
			t.Fatalf("%s: %d join and %d leave; a recorded change is one or the other", c.name, change.Join, len(change.Leave))
		}
		sim, err := SimulateWithTopicIDs(g, c.partitions, c.topicIDs, change)
		if c.kip848 != nil {
			kip848++
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, p := range sim.Predictions {
			checkResults(t, c.name, &p, sim.Joiners)
		}
		i := slices.IndexFunc(sim.Predictions, func(p Prediction) bool { return p.Assignor == c.protocol })
		if i < 0 {
			t.Fatalf("%s: no row for the group's own %s", c.name, c.protocol)
		}
		p := &sim.Predictions[i]
		verdict := "unknown"
		if p.Err == nil {
			// Right: the group settled on the outcome of one of the
			// joiners' places that were run (the only one, without
			// joiners or when every place agrees).
			right := slices.ContainsFunc(p.distinct, func(o PlaceOutcome) bool { return matches(o, settled, sim.Joiners) })
			if right {
				counts[p.Confidence].right++
				verdict = "right"
			} else {
				counts[p.Confidence].wrong++
				verdict = "wrong"
			}
		} else {
			counts[ConfidenceUnknown].right++
		}
		t.Logf("%-40s %-20s %-9s %-11s %-5s %s (%s)", c.name, c.protocol, sim.Leader.Short(), p.Confidence, verdict, movedSpan(p), p.Note)
		if p.Confidence == ConfidenceExact && verdict != "right" {
			t.Errorf("%s: exact %s prediction is wrong:\npredicted %v\nreal %v", c.name, c.protocol, p.Assignment, assignmentsOf(settled))
		}
	}
	var parts []string
	for _, conf := range []Confidence{ConfidenceExact, ConfidenceApproximate} {
		parts = append(parts, fmt.Sprintf("%s %d right %d wrong", conf, counts[conf].right, counts[conf].wrong))
	}
	parts = append(parts, fmt.Sprintf("unknown %d; %d of the changes are KIP-848 groups, predicted by the models of the broker's assignors", counts[ConfidenceUnknown].right, kip848))
	t.Logf("score over %d recorded changes: %s", len(cases), strings.Join(parts, ", "))
}

func movedSpan(p *Prediction) string {
	if p.Err != nil {
		return "-"
	}
	lo, hi := len(p.ByProcess.Moves), len(p.Outcome(true).ByProcess.Moves)
	if lo == hi {
		return fmt.Sprintf("moves %d", lo)
	}
	return fmt.Sprintf("moves %d–%d", lo, hi)
}

func assignmentsOf(g *kafka.Group) map[string][]kafka.TopicPartitions {
	out := make(map[string][]kafka.TopicPartitions, len(g.Members))
	for _, m := range g.Members {
		out[m.MemberID] = m.Assignment
	}
	return out
}

// checkResults holds a row to what it shows: every result it ran once,
// best first, none twice, the worst the last of them and never a copy of
// the best, and as many as its note counts.
func checkResults(t *testing.T, name string, p *Prediction, joiners []string) {
	t.Helper()
	if p.Err != nil {
		return
	}
	if len(p.Results) != len(p.distinct) || len(p.Results) == 0 {
		t.Errorf("%s %s: %d results of %d distinct", name, p.Assignor, len(p.Results), len(p.distinct))
		return
	}
	for i := range p.Results {
		for j := range i {
			if sameOutcome(p.Results[i], p.Results[j], joiners) {
				t.Errorf("%s %s: results %d and %d are the same", name, p.Assignor, j, i)
			}
		}
		if i > 0 && placeLess(p.Results[i], p.Results[i-1]) {
			t.Errorf("%s %s: result %d is better than result %d", name, p.Assignor, i, i-1)
		}
	}
	if n := len(p.Results); n > 1 {
		if p.Worst == nil || sameOutcome(*p.Worst, p.Best(), joiners) || !sameOutcome(*p.Worst, p.Results[n-1], joiners) {
			t.Errorf("%s %s: the worst of %d results is not the last, or is the best", name, p.Assignor, n)
		}
		if !strings.Contains(p.Note, fmt.Sprintf("%d results in", n)) {
			t.Errorf("%s %s: %d results, note %q", name, p.Assignor, n, p.Note)
		}
	} else if p.Worst != nil {
		t.Errorf("%s %s: one result and a worst", name, p.Assignor)
	}
}
