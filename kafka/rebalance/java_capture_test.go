//go:build capture && realkafka

package rebalance

// The Java fixtures in testdata/java are recorded by this test from Apache
// Kafka's own Java consumer on a real Kafka 4.2 broker (kafka/realkafka:
// .ci/kafka starts it, one JVM runs the members):
//
//	go test -tags capture,realkafka -run TestCaptureJava -count=1 ./kafka/rebalance
//
// It needs java, javac and mvn, and never runs without both build tags.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

const javaFixtureDir = "testdata/java"

func TestCaptureJava(t *testing.T) {
	c := realkafka.Start(t, "", 1)
	counts := map[string]int32{"t5": 5, "t7": 7}
	for topic, n := range counts {
		c.CreateTopic(t, topic, n)
	}
	if err := os.MkdirAll(javaFixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	j := c.StartClients(t)
	assignors := []struct{ short, protocol, class string }{
		{"range", "range", "org.apache.kafka.clients.consumer.RangeAssignor"},
		{"rr", "roundrobin", "org.apache.kafka.clients.consumer.RoundRobinAssignor"},
		{"sticky", "sticky", "org.apache.kafka.clients.consumer.StickyAssignor"},
		{"coop", "cooperative-sticky", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"},
	}
	// Client ids: the Java client's default (consumer-<group>-<n>); one
	// custom id shared by the members, as deployments set it; static
	// members (instance ids <group>-i<n>) with default client ids.
	for _, variant := range []string{"consumer", "custom", "static"} {
		for _, a := range assignors {
			group := "java-" + a.short + "-" + variant
			start := func(n int) string {
				name := fmt.Sprintf("%s-%d", group, n)
				props := []string{"group.id=" + group, "partition.assignment.strategy=" + a.class,
					"session.timeout.ms=10000", "heartbeat.interval.ms=500", "auto.offset.reset=earliest"}
				switch variant {
				case "custom":
					props = append(props, "client.id=billing")
				case "static":
					props = append(props, fmt.Sprintf("group.instance.id=%s-i%d", group, n))
				}
				j.Consumer(t, name, []string{"t5", "t7"}, props...)
				return name
			}
			start(1)
			one := settleJava(t, c, group, 1)
			second := start(2)
			two := settleJava(t, c, group, 2)
			leaving := newMember(one, two)
			start(3)
			three := settleJava(t, c, group, 3)
			joined := newMember(two, three)
			// The second member leaves: a dynamic one sends LeaveGroup on
			// close, a static one does not and is dropped when its session
			// times out.
			j.Close(t, second)
			after := settleJava(t, c, group, 2)
			write := func(name string, f franzgoFixture) {
				f.Client, f.Group, f.Protocol, f.Partitions = "Apache Kafka Java client "+realkafka.DefaultVersion, group, a.protocol, counts
				out, err := json.MarshalIndent(f, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(javaFixtureDir, name), append(out, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(a.short+"-"+variant+"-join.json", franzgoFixture{Join: joined, Before: two, After: three})
			write(a.short+"-"+variant+"-leave.json", franzgoFixture{Leave: leaving, Before: three, After: after})
		}
	}
}

// settleJava waits until the group is Stable with n members and all twelve
// partitions assigned, unchanged for two seconds, and returns its members
// as DescribeGroups reports them.
func settleJava(t *testing.T, c *realkafka.Cluster, group string, n int) []rdkMember {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		g1, ok := describeQuiet(c, group)
		if !ok || g1.State != "Stable" || len(g1.Members) != n || assignedPartitions(t, g1) != 12 {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		time.Sleep(2 * time.Second)
		g2, ok := describeQuiet(c, group)
		if ok && reflect.DeepEqual(g1, g2) {
			return members(t, g2)
		}
	}
	t.Fatalf("group %s never settled with %d members", group, n)
	return nil
}

// assignedPartitions counts the partitions the group's members hold.
func assignedPartitions(t *testing.T, g kmsg.DescribeGroupsResponseGroup) int {
	t.Helper()
	n := 0
	for _, m := range members(t, g) {
		for _, ps := range m.Assigned {
			n += len(ps)
		}
	}
	return n
}

// describeQuiet is describe, false while the coordinator is not ready.
func describeQuiet(c *realkafka.Cluster, group string) (kmsg.DescribeGroupsResponseGroup, bool) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(context.Background(), c.Client())
	if err != nil || len(resp.Groups) != 1 || resp.Groups[0].ErrorCode != 0 {
		return kmsg.DescribeGroupsResponseGroup{}, false
	}
	return resp.Groups[0], true
}
