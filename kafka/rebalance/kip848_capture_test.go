//go:build capture && realkafka

package rebalance

// The KIP-848 fixtures in testdata/java-kip848 are recorded by this test
// from Apache Kafka's own Java consumer on the consumer protocol
// (group.protocol=consumer) against a real Kafka 4.2 broker, whose group
// coordinator runs the server-side uniform and range assignors:
//
//	go test -tags capture,realkafka -run 'TestCaptureKIP848$' -count=1 ./kafka/rebalance
//
// It needs java, javac and mvn, and never runs without both build tags.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

const kip848FixtureDir = "testdata/java-kip848"

func TestCaptureKIP848(t *testing.T) {
	c := realkafka.Start(t, "", 1)
	all := map[string]int32{"t5": 5, "t6": 6, "t7": 7, "t40": 40}
	for topic, n := range all {
		c.CreateTopic(t, topic, n)
	}
	ids := map[string]string{}
	details, err := c.Admin().ListTopics(context.Background(), "t5", "t6", "t7", "t40")
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range details {
		ids[name] = d.ID.String()
	}
	if err := os.MkdirAll(kip848FixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	j := c.StartClients(t)
	for _, variant := range []string{"consumer", "custom", "static", "odd", "wide"} {
		for _, assignor := range []string{"uniform", "range"} {
			group := "kip848-" + assignor + "-" + variant
			// odd: 11 partitions, so that quotas differ by one; wide: 45,
			// so that a member's partitions outnumber its hash set's
			// buckets and the broker's set order is not by number.
			topics := []string{"t5", "t7"}
			switch variant {
			case "odd":
				topics = []string{"t5", "t6"}
			case "wide":
				topics = []string{"t5", "t40"}
			}
			counts := map[string]int32{}
			total := 0
			for _, topic := range topics {
				counts[topic] = all[topic]
				total += int(all[topic])
			}
			start := func(n int) string {
				name := fmt.Sprintf("%s-%d", group, n)
				props := []string{"group.id=" + group, "group.protocol=consumer",
					"group.remote.assignor=" + assignor, "auto.offset.reset=earliest"}
				switch variant {
				case "custom":
					props = append(props, "client.id=billing")
				case "static":
					props = append(props, fmt.Sprintf("group.instance.id=%s-i%d", group, n))
				}
				j.Consumer(t, name, topics, props...)
				return name
			}
			start(1)
			one := settleKIP848(t, c, group, 1, total)
			second := start(2)
			two := settleKIP848(t, c, group, 2, total)
			leaving := newKIP848Member(one.Members, two.Members)
			start(3)
			three := settleKIP848(t, c, group, 3, total)
			joined := newKIP848Member(two.Members, three.Members)
			// The second member leaves: a dynamic one leaves the group on
			// close, a static one leaves only for now (epoch -2) and is
			// dropped when its session (the broker's 6 s) times out.
			j.Close(t, second)
			after := settleKIP848(t, c, group, 2, total)
			write := func(name string, f kip848Fixture) {
				f.Client, f.Type, f.Group, f.Protocol, f.Partitions = "Apache Kafka Java client "+realkafka.DefaultVersion+", group.protocol=consumer", "consumer", group, assignor, counts
				f.TopicIDs = map[string]string{}
				for _, topic := range topics {
					f.TopicIDs[topic] = ids[topic]
				}
				out, err := json.MarshalIndent(f, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(kip848FixtureDir, name), append(out, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(assignor+"-"+variant+"-join.json", kip848Fixture{Join: joined, Before: two, After: three})
			write(assignor+"-"+variant+"-leave.json", kip848Fixture{Leave: leaving, Before: three, After: after})
		}
	}
}

// kip848Fixture is one recorded membership change of a KIP-848 group.
type kip848Fixture struct {
	Client     string            `json:"client"`
	Type       string            `json:"type"`
	Group      string            `json:"group"`
	Protocol   string            `json:"protocol"`
	Partitions map[string]int32  `json:"partitions"`
	TopicIDs   map[string]string `json:"topic_ids"`
	Join       string            `json:"join,omitempty"`
	Leave      string            `json:"leave,omitempty"`
	Before     kip848Snapshot    `json:"before_group"`
	After      kip848Snapshot    `json:"after_group"`
}

// settleKIP848 waits until the group is Stable with n members, every member
// at the group's epoch with its target assignment and all twelve
// partitions assigned, unchanged for two seconds, and returns the group as
// ConsumerGroupDescribe reports it.
func settleKIP848(t *testing.T, c *realkafka.Cluster, group string, n, total int) kip848Snapshot {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		g1, ok := describeKIP848(c, group)
		if !ok || !g1.settled(n, total) {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		time.Sleep(2 * time.Second)
		g2, ok := describeKIP848(c, group)
		if ok && reflect.DeepEqual(g1, g2) {
			return g2
		}
	}
	t.Fatalf("group %s never settled with %d members", group, n)
	return kip848Snapshot{}
}

func (g kip848Snapshot) settled(n, want int) bool {
	if g.State != "Stable" || len(g.Members) != n || g.Epoch != g.AssignmentEpoch {
		return false
	}
	total := 0
	for _, m := range g.Members {
		if m.MemberEpoch != g.Epoch || !reflect.DeepEqual(m.Assigned, m.Target) {
			return false
		}
		for _, ps := range m.Assigned {
			total += len(ps)
		}
	}
	return total == want
}

// describeKIP848 is ConsumerGroupDescribe of one group, false while the
// coordinator is not ready.
func describeKIP848(c *realkafka.Cluster, group string) (kip848Snapshot, bool) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(context.Background(), c.Client())
	if err != nil || len(resp.Groups) != 1 || resp.Groups[0].ErrorCode != 0 {
		return kip848Snapshot{}, false
	}
	g := resp.Groups[0]
	out := kip848Snapshot{State: g.State, Epoch: g.Epoch, AssignmentEpoch: g.AssignmentEpoch, Assignor: g.AssignorName}
	for _, m := range g.Members {
		km := kip848Member{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost, MemberEpoch: m.MemberEpoch,
			Subscribed: slices.Sorted(slices.Values(m.SubscribedTopics)),
			Assigned:   kip848Assigned(m.Assignment), Target: kip848Assigned(m.TargetAssignment)}
		// The target as the broker iterates it: topics, then partitions,
		// in its hash maps' order.
		for _, tp := range m.TargetAssignment.TopicPartitions {
			km.TargetOrder = append(km.TargetOrder, kip848Ordered{Topic: tp.Topic, Partitions: slices.Clone(tp.Partitions)})
		}
		if m.InstanceID != nil {
			km.InstanceID = *m.InstanceID
		}
		out.Members = append(out.Members, km)
	}
	slices.SortFunc(out.Members, func(a, b kip848Member) int {
		switch {
		case a.MemberID < b.MemberID:
			return -1
		case a.MemberID > b.MemberID:
			return 1
		}
		return 0
	})
	return out, true
}

func kip848Assigned(a kmsg.Assignment) map[string][]int32 {
	out := map[string][]int32{}
	for _, tp := range a.TopicPartitions {
		ps := slices.Clone(tp.Partitions)
		slices.Sort(ps)
		out[tp.Topic] = append(out[tp.Topic], ps...)
	}
	return out
}

func newKIP848Member(before, after []kip848Member) string {
	for _, m := range after {
		if !slices.ContainsFunc(before, func(b kip848Member) bool { return b.MemberID == m.MemberID }) {
			return m.MemberID
		}
	}
	return ""
}
