//go:build capture

package rebalance

// The librdkafka fixtures in testdata/librdkafka are recorded by this test
// from real kcat consumers against the in-process kfake cluster:
//
//	go test -tags capture -run TestCaptureLibrdkafka -count=1 ./kafka/rebalance
//
// It needs kcat on PATH and never runs without the capture build tag.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

func TestCaptureLibrdkafka(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		t.Skip("kcat is not installed")
	}
	version := kcatVersion(t, kcat)
	c := kafkatest.NewCluster(t)
	counts := map[string]int32{"kc-a": 6, "kc-b": 4}
	for topic, n := range counts {
		c.CreateTopic(t, topic, n)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()

	for _, sc := range []struct{ protocol, group, prefix string }{
		{"range", "kc-range", "range"},
		{"roundrobin", "kc-rr", "rr"},
		{"cooperative-sticky", "kc-coop", "coop"},
	} {
		start := func(n int) *exec.Cmd {
			cmd := exec.Command(kcat, "-b", strings.Join(c.Addrs, ","), "-G", sc.group,
				"-X", "partition.assignment.strategy="+sc.protocol,
				"-X", fmt.Sprintf("client.id=%s%d", sc.prefix, n),
				"-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500",
				"-q", "kc-a", "kc-b")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			return cmd
		}
		start(1)
		start(2)
		two := settle(t, c, cl, sc.group, 2)
		third := start(3)
		three := settle(t, c, cl, sc.group, 3)
		joined := newMember(two, three)
		if err := third.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		after := settle(t, c, cl, sc.group, 2)
		write := func(name string, f rdkFixture) {
			f.Librdkafka, f.Kcat, f.Group, f.Protocol, f.Partitions = version[1], version[0], sc.group, sc.protocol, counts
			b, err := json.MarshalIndent(f, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(rdkFixtureDir, name), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(sc.prefix+"-join.json", rdkFixture{Join: joined, Before: two, After: three})
		write(sc.prefix+"-leave.json", rdkFixture{Leave: joined, Before: three, After: after})
	}
}

// kcatVersion returns kcat's and librdkafka's versions from kcat -V.
func kcatVersion(t *testing.T, kcat string) [2]string {
	out, err := exec.Command(kcat, "-V").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	var v [2]string
	f := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(string(out)))
	for i := 0; i+1 < len(f); i++ {
		switch f[i] {
		case "Version":
			v[0] = f[i+1]
		case "librdkafka":
			v[1] = f[i+1]
		}
	}
	if v[0] == "" || v[1] == "" {
		t.Fatalf("cannot read versions from kcat -V: %s", out)
	}
	return v
}

// settle waits for the group to be Stable with n members and all ten
// partitions assigned, then for the same generation to hold for three
// seconds, and returns the members as DescribeGroups reports them.
func settle(t *testing.T, c *kafkatest.Cluster, cl *kgo.Client, group string, n int) []rdkMember {
	t.Helper()
	for {
		c.WaitStable(t, group, n, 10)
		g1 := describe(t, cl, group)
		time.Sleep(3 * time.Second)
		g2 := describe(t, cl, group)
		if g2.State == "Stable" && reflect.DeepEqual(g1, g2) {
			return members(t, g2)
		}
	}
}

func describe(t *testing.T, cl *kgo.Client, group string) kmsg.DescribeGroupsResponseGroup {
	t.Helper()
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(context.Background(), cl)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Groups) != 1 || resp.Groups[0].ErrorCode != 0 {
		t.Fatalf("describe %s: %+v", group, resp)
	}
	return resp.Groups[0]
}

func members(t *testing.T, g kmsg.DescribeGroupsResponseGroup) []rdkMember {
	t.Helper()
	var out []rdkMember
	for _, m := range g.Members {
		a := kmsg.NewConsumerMemberAssignment()
		if err := a.ReadFrom(m.MemberAssignment); err != nil {
			t.Fatalf("member %s assignment: %v", m.MemberID, err)
		}
		assigned := map[string][]int32{}
		for _, tp := range a.Topics {
			// A topic may come twice (librdkafka's cooperative-sticky
			// after a leave): keep both entries' partitions.
			ps := append(assigned[tp.Topic], tp.Partitions...)
			slices.Sort(ps)
			assigned[tp.Topic] = slices.Compact(ps)
		}
		rm := rdkMember{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost,
			Metadata: m.ProtocolMetadata, Assignment: m.MemberAssignment, Assigned: assigned}
		if m.InstanceID != nil {
			rm.InstanceID = *m.InstanceID
		}
		out = append(out, rm)
	}
	slices.SortFunc(out, func(a, b rdkMember) int { return strings.Compare(a.ClientID, b.ClientID) })
	return out
}

func newMember(before, after []rdkMember) string {
	for _, m := range after {
		if !slices.ContainsFunc(before, func(b rdkMember) bool { return b.MemberID == m.MemberID }) {
			return m.MemberID
		}
	}
	return ""
}
