//go:build capture

package rebalance

// The franz-go fixtures in testdata/franzgo are recorded by this test from
// real kgo members against the in-process kfake cluster:
//
//	go test -tags capture -run TestCaptureFranzGo -count=1 ./kafka/rebalance
//
// It never runs without the capture build tag.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// franzgoFixture is one recorded membership change, in the librdkafka
// fixtures' form with the client's module version.
type franzgoFixture struct {
	Client     string           `json:"client"`
	Group      string           `json:"group"`
	Protocol   string           `json:"protocol"`
	Partitions map[string]int32 `json:"partitions"`
	Join       string           `json:"join,omitempty"`
	Leave      string           `json:"leave,omitempty"`
	Before     []rdkMember      `json:"before"`
	After      []rdkMember      `json:"after"`
}

const franzgoFixtureDir = "testdata/franzgo"

func TestCaptureFranzGo(t *testing.T) {
	version := "franz-go " + moduleVersion(t, "github.com/twmb/franz-go")
	c := kafkatest.NewCluster(t)
	counts := map[string]int32{"t5": 5, "t7": 7}
	for topic, n := range counts {
		c.CreateTopic(t, topic, n)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := os.MkdirAll(franzgoFixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	balancers := []struct {
		short string
		bal   func() kgo.GroupBalancer
	}{
		{"range", kgo.RangeBalancer},
		{"rr", kgo.RoundRobinBalancer},
		{"sticky", kgo.StickyBalancer},
		{"coop", kgo.CooperativeStickyBalancer},
	}
	// Client ids: kgo's default; the Java client's default form
	// (consumer-<group>-<n>), which must not make a franz-go group look
	// like something else; static members with kgo's default id.
	for _, variant := range []string{"kgo", "consumer", "static"} {
		for _, b := range balancers {
			group := "fg-" + b.short + "-" + variant
			start := func(n int) *kafkatest.Member {
				opts := []kgo.Opt{kgo.Balancers(b.bal())}
				switch variant {
				case "consumer":
					opts = append(opts, kgo.ClientID(fmt.Sprintf("consumer-%s-%d", group, n)))
				case "static":
					opts = append(opts, kgo.InstanceID(fmt.Sprintf("%s-i%d", group, n)))
				}
				return c.Join(t, group, []string{"t5", "t7"}, opts...)
			}
			start(1)
			second := start(2)
			two := settleGroup(t, c, cl, group, 2, 12)
			start(3)
			three := settleGroup(t, c, cl, group, 3, 12)
			joined := newMember(two, three)
			leaving := second.MemberID()
			// A dynamic member leaves the group; a static one just stops,
			// and the coordinator drops it when its session times out.
			second.Close()
			after := settleGroup(t, c, cl, group, 2, 12)
			write := func(name string, f franzgoFixture) {
				f.Client, f.Group, f.Protocol, f.Partitions = version, group, b.bal().ProtocolName(), counts
				out, err := json.MarshalIndent(f, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(franzgoFixtureDir, name), append(out, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(b.short+"-"+variant+"-join.json", franzgoFixture{Join: joined, Before: two, After: three})
			write(b.short+"-"+variant+"-leave.json", franzgoFixture{Leave: leaving, Before: three, After: after})
		}
	}
}

// settleGroup waits for the group to be Stable with n members and assigned
// partitions assigned, then for the same generation to hold for two
// seconds, and returns the members as DescribeGroups reports them.
func settleGroup(t *testing.T, c *kafkatest.Cluster, cl *kgo.Client, group string, n, assigned int) []rdkMember {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		c.WaitStable(t, group, n, assigned)
		g1 := describe(t, cl, group)
		time.Sleep(2 * time.Second)
		g2 := describe(t, cl, group)
		if g2.State == "Stable" && len(g2.Members) == n && reflect.DeepEqual(g1, g2) {
			return members(t, g2)
		}
	}
	t.Fatalf("group %s never settled with %d members", group, n)
	return nil
}

// moduleVersion is the version of a module kgroups builds with (go list).
func moduleVersion(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", path).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}
