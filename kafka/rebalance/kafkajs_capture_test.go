package rebalance

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// kafkajsFixture is one recorded kafkajs group: the members as
// DescribeGroups reported them once the group was Stable after a change.
type kafkajsFixture struct {
	Scenario string `json:"scenario"`
	Client   string `json:"client"`
	Group    string `json:"group"`
	Protocol string `json:"protocol"`
	// Partitions is each subscribed topic's partition count.
	Partitions map[string]int32 `json:"partitions"`
	// Change is what happened since the previous fixture of the scenario
	// ("2 members join", "a third member joins", "member 2 leaves").
	Change  string          `json:"change"`
	Members []fixtureMember `json:"members"`
	// Leader is what the leader's RoundRobinAssigner was given: the
	// topics in its subscription order and each topic's partitions in
	// the order its metadata listed them.
	Leader struct {
		Topics     []string           `json:"topics"`
		Partitions map[string][]int32 `json:"partitions"`
	} `json:"leader"`
}

// fixtureMember is one member: its join metadata and the assignment the
// leader gave it, both the exact bytes DescribeGroups returned (base64).
type fixtureMember struct {
	MemberID   string `json:"member_id"`
	ClientID   string `json:"client_id"`
	Host       string `json:"host"`
	Metadata   []byte `json:"metadata"`
	Assignment []byte `json:"assignment"`
}

// TestCaptureKafkaJSFixtures records testdata/kafkajs from real kafkajs
// consumers on a kfake cluster. It needs node and kafkajs, so it runs only
// when asked: KGROUPS_CAPTURE=1 and KGROUPS_KAFKAJS_MODULES naming the
// node_modules directory kafkajs is installed in (see
// testdata/kafkajs/README.md).
func TestCaptureKafkaJSFixtures(t *testing.T) {
	if os.Getenv("KGROUPS_CAPTURE") != "1" {
		t.Skip("set KGROUPS_CAPTURE=1 and KGROUPS_KAFKAJS_MODULES to record the kafkajs fixtures")
	}
	modules := os.Getenv("KGROUPS_KAFKAJS_MODULES")
	if modules == "" {
		t.Fatal("KGROUPS_KAFKAJS_MODULES must name the node_modules directory holding kafkajs")
	}
	version := kafkajsVersion(t, modules)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "js-orders", 6)
	c.CreateTopic(t, "js-events", 4)
	raw, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	script, err := filepath.Abs(filepath.Join("testdata", "kafkajs", "capture.js"))
	if err != nil {
		t.Fatal(err)
	}
	const group = "js-rr"
	orderFile := filepath.Join(t.TempDir(), "order.json")
	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "KGROUPS_ORDER_FILE="+orderFile, "KGROUPS_BROKERS="+strings.Join(c.Addrs, ","),
		"KGROUPS_GROUP="+group, "KGROUPS_TOPICS=js-orders,js-events")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	say := func(line, want string) {
		t.Helper()
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() || lines.Text() != want {
			t.Fatalf("capture.js answered %q to %q, want %q", lines.Text(), line, want)
		}
	}
	record := func(name, change string, members int) {
		t.Helper()
		f := stableKafkaJSGroup(t, raw, group, members, 10)
		f.Scenario, f.Change, f.Client = name, change, "kafkajs "+version
		f.Partitions = map[string]int32{"js-orders": 6, "js-events": 4}
		order, err := os.ReadFile(orderFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(order, &f.Leader); err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "kafkajs", name+".json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	say("add", "added 1")
	say("add", "added 2")
	record("1-two-members", "2 members join", 2)
	say("add", "added 3")
	record("2-third-joins", "a third member joins", 3)
	say("stop 2", "stopped 2")
	record("3-second-leaves", "the second member to join leaves", 2)
	_, _ = stdin.Write([]byte("quit\n"))
}

// stableKafkaJSGroup describes the group until it is Stable with members
// members holding assigned partitions in all, keeping the raw bytes.
func stableKafkaJSGroup(t *testing.T, cl *kgo.Client, group string, members, assigned int) kafkajsFixture {
	t.Helper()
	var f kafkajsFixture
	kafkatest.Eventually(t, group+" to be Stable with "+string(rune('0'+members))+" kafkajs members", func() bool {
		req := kmsg.NewPtrDescribeGroupsRequest()
		req.Groups = []string{group}
		resp, err := req.RequestWith(context.Background(), cl)
		if err != nil || len(resp.Groups) != 1 {
			return false
		}
		g := resp.Groups[0]
		if g.State != "Stable" || len(g.Members) != members {
			return false
		}
		f = kafkajsFixture{Group: group, Protocol: g.Protocol}
		n := 0
		for _, m := range g.Members {
			a := kmsg.NewConsumerMemberAssignment()
			if err := a.ReadFrom(m.MemberAssignment); err != nil {
				return false
			}
			for _, tp := range a.Topics {
				n += len(tp.Partitions)
			}
			f.Members = append(f.Members, fixtureMember{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost,
				Metadata: slices.Clone(m.ProtocolMetadata), Assignment: slices.Clone(m.MemberAssignment)})
		}
		slices.SortFunc(f.Members, func(a, b fixtureMember) int { return strings.Compare(a.MemberID, b.MemberID) })
		return n == assigned
	})
	return f
}

func kafkajsVersion(t *testing.T, modules string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(modules, "kafkajs", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Version string }
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p.Version
}
