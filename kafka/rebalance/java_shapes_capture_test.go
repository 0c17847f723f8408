//go:build capture && realkafka

package rebalance

// The "shapes" Java fixtures in testdata/java (a fourth member joining
// three, then the second of four leaving, over 23 partitions so that the
// members' quotas differ) are recorded by this test from Apache Kafka's own Java consumer
// on a real Kafka 4.2 broker:
//
//	go test -tags capture,realkafka -run TestCaptureJavaShapes -count=1 ./kafka/rebalance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/realkafka"
)

func TestCaptureJavaShapes(t *testing.T) {
	c := realkafka.Start(t, "", 1)
	counts := map[string]int32{"t5": 5, "t7": 7, "t11": 11}
	total := 0
	for topic, n := range counts {
		c.CreateTopic(t, topic, n)
		total += int(n)
	}
	j := c.StartClients(t)
	assignors := []struct{ short, protocol, class string }{
		{"range", "range", "org.apache.kafka.clients.consumer.RangeAssignor"},
		{"rr", "roundrobin", "org.apache.kafka.clients.consumer.RoundRobinAssignor"},
		{"sticky", "sticky", "org.apache.kafka.clients.consumer.StickyAssignor"},
		{"coop", "cooperative-sticky", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"},
	}
	for _, a := range assignors {
		group := "java-" + a.short + "-shapes"
		start := func(n int) string {
			name := fmt.Sprintf("%s-%d", group, n)
			j.Consumer(t, name, []string{"t5", "t7", "t11"}, "group.id="+group, "partition.assignment.strategy="+a.class,
				"session.timeout.ms=10000", "heartbeat.interval.ms=500", "auto.offset.reset=earliest")
			return name
		}
		start(1)
		settleJavaTotal(t, c, group, 1, total)
		second := start(2)
		settleJavaTotal(t, c, group, 2, total)
		start(3)
		three := settleJavaTotal(t, c, group, 3, total)
		start(4)
		four := settleJavaTotal(t, c, group, 4, total)
		joined := newMember(three, four)
		// The second member leaves. (Two closed one after the other
		// leave in two rebalances: the Java client's close takes longer
		// than the others' rejoin.)
		j.Close(t, second)
		after := settleJavaTotal(t, c, group, 3, total)
		leaving := newMember(after, four)
		if g0, g1 := maxGeneration(t, four), maxGeneration(t, after); g1 != g0+1 {
			t.Fatalf("%s: the leave took generations %d to %d: more than one rebalance", group, g0, g1)
		}
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
		write(a.short+"-shapes-join.json", franzgoFixture{Join: joined, Before: three, After: four})
		write(a.short+"-shapes-leave.json", franzgoFixture{Leave: leaving, Before: four, After: after})
	}
}

// maxGeneration is the highest generation the members' join metadata
// carries (version 2 and later).
func maxGeneration(t *testing.T, ms []rdkMember) int32 {
	t.Helper()
	g := int32(-1)
	for _, m := range ms {
		meta, _, err := kafka.ReadMemberMetadata(m.Metadata)
		if err != nil || meta.Version < 2 {
			t.Fatalf("member %s: metadata version %d, %v", m.MemberID, meta.Version, err)
		}
		g = max(g, meta.Generation)
	}
	return g
}

// settleJavaTotal is settleJava for a group whose members share total
// partitions.
func settleJavaTotal(t *testing.T, c *realkafka.Cluster, group string, n, total int) []rdkMember {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		g1, ok := describeQuiet(c, group)
		if !ok || g1.State != "Stable" || len(g1.Members) != n || assignedPartitions(t, g1) != total {
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
