//go:build capture && realkafka

package rebalance

// The heterogeneous KIP-848 fixtures in testdata/java-kip848
// (uniform-hetero-*) are recorded by this test: Java consumers on the
// consumer protocol whose subscriptions differ, under the broker's uniform
// assignor, on a real Kafka 4.2 broker:
//
//	go test -tags capture,realkafka -run TestCaptureKIP848Hetero -count=1 ./kafka/rebalance
//
// Each shape is a subtest (-run 'TestCaptureKIP848Hetero/static' records
// one). It needs java, javac and mvn, and never runs without both tags.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// heteroStep is one step of a shape: a member named name joins with
// topics, or (topics nil) leaves. Steps with record set are written as
// fixtures <shape>-<record>.json. A member that joins a recorded step
// subscribes to every topic the group does, as simulate's joiners do.
type heteroStep struct {
	name   string
	topics []string
	record string
}

func TestCaptureKIP848Hetero(t *testing.T) {
	c := realkafka.Start(t, "", 1)
	all := map[string]int32{"t3": 3, "t5": 5, "s5": 5, "t6": 6, "t7": 7, "t9": 9, "t12": 12, "t40": 40}
	for topic, n := range all {
		c.CreateTopic(t, topic, n)
	}
	details, err := c.Admin().ListTopics(context.Background(), slices.Collect(maps.Keys(all))...)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for name, d := range details {
		ids[name] = d.ID.String()
	}
	if err := os.MkdirAll(kip848FixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	j := c.StartClients(t)
	join := func(name string, topics ...string) heteroStep { return heteroStep{name: name, topics: topics} }
	leave := func(name string) heteroStep { return heteroStep{name: name} }
	rec := func(s heteroStep, change string) heteroStep { s.record = change; return s }
	shapes := []struct {
		name   string
		static bool
		steps  []heteroStep
	}{
		// Two members of disjoint topics, then members subscribed to both.
		{name: "superset", steps: []heteroStep{join("m1", "t5"), join("m2", "t7"),
			rec(join("m3", "t5", "t7"), "join"), rec(join("m4", "t5", "t7"), "join4"), rec(leave("m1"), "leave")}},
		// Two disjoint subscriptions, two members each.
		{name: "disjoint", steps: []heteroStep{join("m1", "t6"), join("m2", "t9"), join("m3", "t6"), join("m4", "t9"),
			rec(leave("m3"), "leave"), rec(join("m5", "t6", "t9"), "join")}},
		// Three topics, each member subscribed to two of them.
		{name: "three", steps: []heteroStep{join("m1", "t5", "t6"), join("m2", "t6", "t7"), join("m3", "t5", "t7"),
			rec(join("m4", "t5", "t6", "t7"), "join"), rec(leave("m2"), "leave")}},
		// A 40-partition topic beside a 5-partition one.
		{name: "wide", steps: []heteroStep{join("m1", "t40"), join("m2", "t5", "t40"), join("m3", "t5"),
			rec(join("m4", "t5", "t40"), "join"), rec(leave("m2"), "leave")}},
		// The member subscribed to all of three topics (3, 9 and 12
		// partitions) leaves, and another joins.
		{name: "uneven", steps: []heteroStep{join("m1", "t3", "t9", "t12"), join("m2", "t3"), join("m3", "t12"), join("m4", "t9", "t12"),
			rec(leave("m1"), "leave"), rec(join("m5", "t3", "t9", "t12"), "join")}},
		// Recorded after the model was written, to try it on shapes it
		// was not built on: static members, and five topics of which two
		// (t5, s5) are alike in partitions and subscribers, so that their
		// ids break the tie.
		{name: "static", static: true, steps: []heteroStep{join("m1", "t6", "t9"), join("m2", "t9"), join("m3", "t6"),
			rec(join("m4", "t6", "t9"), "join"), rec(leave("m1"), "leave")}},
		{name: "alike", steps: []heteroStep{join("m1", "t3", "t5"), join("m2", "s5", "t7"), join("m3", "t5", "s5"), join("m4", "t12"),
			rec(join("m5", "s5", "t12", "t3", "t5", "t7"), "join"), rec(leave("m3"), "leave")}},
	}
	for _, shape := range shapes {
		t.Run(shape.name, func(t *testing.T) {
			group := "kip848-hetero-" + shape.name
			members := map[string][]string{} // name -> topics
			memberIDs := map[string]string{} // name -> member id
			var now kip848Snapshot
			settle := func() kip848Snapshot {
				var union []string
				for _, ts := range members {
					union = append(union, ts...)
				}
				total := 0
				for _, topic := range uniqueSorted(union) {
					total += int(all[topic])
				}
				return settleKIP848(t, c, group, len(members), total)
			}
			for i, s := range shape.steps {
				before := now
				var f kip848Fixture
				if s.topics != nil {
					props := []string{"group.id=" + group, "group.protocol=consumer", "group.remote.assignor=uniform", "auto.offset.reset=earliest"}
					if shape.static {
						props = append(props, fmt.Sprintf("group.instance.id=%s-%s", group, s.name))
					}
					j.Consumer(t, group+"-"+s.name, s.topics, props...)
					members[s.name] = s.topics
					now = settle()
					memberIDs[s.name] = newKIP848Member(before.Members, now.Members)
					f.Join = memberIDs[s.name]
				} else {
					j.Close(t, group+"-"+s.name)
					delete(members, s.name)
					now = settle()
					f.Leave = memberIDs[s.name]
				}
				if s.record == "" {
					continue
				}
				if i == 0 {
					t.Fatalf("%s: the first step cannot be recorded", shape.name)
				}
				f.Before, f.After = before, now
				f.Client, f.Type, f.Group, f.Protocol = "Apache Kafka Java client "+realkafka.DefaultVersion+", group.protocol=consumer", "consumer", group, "uniform"
				f.Partitions, f.TopicIDs = map[string]int32{}, map[string]string{}
				for _, snap := range []kip848Snapshot{before, now} {
					for _, m := range snap.Members {
						for _, topic := range m.Subscribed {
							f.Partitions[topic], f.TopicIDs[topic] = all[topic], ids[topic]
						}
					}
				}
				out, err := json.MarshalIndent(f, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				name := filepath.Join(kip848FixtureDir, "uniform-hetero-"+shape.name+"-"+s.record+".json")
				if err := os.WriteFile(name, append(out, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
