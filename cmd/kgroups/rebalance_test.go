package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// leaveCounter counts the LeaveGroup requests the cluster receives from
// anyone, letting the cluster answer them as usual.
func leaveCounter(c *kafkatest.Cluster) *atomic.Int64 {
	var n atomic.Int64
	c.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		n.Add(1)
		return nil, nil, false
	})
	return &n
}

// memberIDsOf returns kfake's member ids of a group, sorted.
func memberIDsOf(gi *kfake.GroupInfo) []string {
	var ids []string
	for _, m := range gi.Members {
		ids = append(ids, m.MemberID)
	}
	sort.Strings(ids)
	return ids
}

// ownerChanges counts partitions whose owning member id differs between two
// of kfake's views of a group.
func ownerChanges(before, after *kfake.GroupInfo) int {
	// By process, as kgroups counts moves: the instance id of a static
	// member, else its client id and host.
	process := func(m *kfake.GroupMember) string {
		if m.InstanceID != nil {
			return "instance " + *m.InstanceID
		}
		return m.ClientID + " " + m.ClientHost
	}
	owner := map[string]string{}
	for i := range before.Members {
		for _, p := range kafkatest.SortedAssignment(before.Members[i].Assignment) {
			owner[p] = process(&before.Members[i])
		}
	}
	n := 0
	for i := range after.Members {
		for _, p := range kafkatest.SortedAssignment(after.Members[i].Assignment) {
			if owner[p] != process(&after.Members[i]) {
				n++
			}
		}
	}
	return n
}

// waitSeen waits until kgroups itself sees the group Stable with members
// members, each owning partitions, and returns it.
func waitSeen(t *testing.T, c *kafkatest.Cluster, group string, members int) *kafka.Group {
	t.Helper()
	cl := c.Client(t)
	var g *kafka.Group
	kafkatest.Eventually(t, group+" to be Stable as kgroups sees it", func() bool {
		s, err := cl.PollGroups(context.Background(), group)
		if err != nil {
			return false
		}
		got, ok := s.Group(group)
		if !ok || got.State != kafka.StateStable || len(got.Members) != members {
			return false
		}
		for _, m := range got.Members {
			if m.PartitionCount() == 0 {
				return false
			}
		}
		g = got
		return true
	})
	return g
}

func TestRebalanceCLI(t *testing.T) {
	isolateConfig(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	leaves := leaveCounter(c)
	brokers := strings.Join(c.Addrs, ",")

	const dyn, static, k848 = "rb-dyn", "rb-static", "rb-848"
	for _, id := range []string{"d1", "d2"} {
		c.Join(t, dyn, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID(id))
	}
	for _, id := range []string{"s1", "s2", "s3"} {
		c.Join(t, static, []string{"orders"}, kgo.Balancers(kgo.RoundRobinBalancer()), kgo.ClientID(id), kgo.InstanceID(id))
	}
	for _, id := range []string{"k1", "k2"} {
		c.Join(t, k848, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID(id))
	}
	c.WaitStable(t, dyn, 2, 6)
	c.WaitStable(t, static, 3, 6)
	dynBefore := waitSeen(t, c, dyn, 2)
	waitSeen(t, c, static, 3)
	k848Before := waitSeen(t, c, k848, 2)
	victim := dynBefore.Members[0].MemberID
	base := leaves.Load()

	t.Run("dry run changes nothing", func(t *testing.T) {
		before := memberIDsOf(c.GroupInfo(dyn))
		for _, args := range [][]string{
			{"rebalance", dyn, "--member", victim},
			{"rebalance", dyn, "--all"},
			{"--read-only", "rebalance", dyn, "--all"},
		} {
			code, stdout, stderr := runKgroups(t, append([]string{"-b", brokers}, args...)...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", args, code, stderr)
			}
			for _, want := range []string{
				"Group rb-dyn (classic, Stable, assignor range, 2 members): remove ",
				"MEMBER-ID", "REMOVE-BY", "member-id",
				"What happens:\n",
				"rejoins with a new member id",
				"Dry run: nothing was sent. Add --execute to remove ",
			} {
				if !strings.Contains(stdout, want) {
					t.Errorf("%q: output lacks %q:\n%s", args, want, stdout)
				}
			}
			if args[0] == "--read-only" && !strings.Contains(stdout, "is read-only and would refuse") {
				t.Errorf("read-only dry run does not say --execute would be refused:\n%s", stdout)
			}
		}
		if n := leaves.Load() - base; n != 0 {
			t.Errorf("dry runs sent %d LeaveGroup requests", n)
		}
		if after := memberIDsOf(c.GroupInfo(dyn)); !reflect.DeepEqual(after, before) {
			t.Errorf("members changed from %v to %v", before, after)
		}
	})

	t.Run("refused writes send nothing", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			code int
			want string
		}{
			{[]string{"--read-only", "rebalance", dyn, "--all", "--execute"}, 1, "is read-only"},
			// The protected refusals are checkWrite's, shared with
			// reset; any failure exit code is accepted here.
			{[]string{"--protected", "rebalance", dyn, "--all", "--execute"}, -1, "is protected: to change group \"" + dyn + "\", type the name again with --confirm " + dyn},
			{[]string{"--protected", "rebalance", dyn, "--all", "--execute", "--confirm", "other"}, -1, "does not name group \"" + dyn + "\""},
			{[]string{"rebalance", dyn}, 2, "exactly one of --member ID..., --instance ID... or --all"},
			{[]string{"rebalance", dyn, "--all", "--member", victim}, 2, "exactly one of --member ID..., --instance ID... or --all"},
			{[]string{"rebalance", dyn, "--all", "--timeout", "0s"}, 2, "invalid --timeout 0s: give a positive duration"},
			{[]string{"rebalance", dyn, "--all", "--confirm", dyn}, 2, "--confirm only applies with --execute"},
			{[]string{"rebalance", "--all"}, 2, "rebalance needs exactly one group name, got 0"},
			{[]string{"rebalance", dyn, "--member", "nobody", "--execute"}, 1, `member "nobody" is not in group "rb-dyn"; its members are: `},
			{[]string{"rebalance", dyn, "--instance", "x", "--execute"}, 1, "the group has no static members"},
			{[]string{"rebalance", "no-such-group", "--all", "--execute"}, 1, `group "no-such-group" not found`},
		} {
			code, _, stderr := runKgroups(t, append([]string{"-b", brokers}, tc.args...)...)
			if (tc.code >= 0 && code != tc.code) || code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
			}
		}
		if n := leaves.Load() - base; n != 0 {
			t.Errorf("refused commands sent %d LeaveGroup requests", n)
		}
	})

	t.Run("dynamic member by member id", func(t *testing.T) {
		giBefore := c.GroupInfo(dyn)
		code, stdout, stderr := runKgroups(t, "-b", brokers, "rebalance", dyn, "--member", victim, "--execute", "--timeout", "1m")
		if code != 0 {
			t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
		}
		// The removal's receipt was written (before anything was sent)
		// and names the removed member.
		receipts, _ := filepath.Glob(filepath.Join(state, "kgroups", "receipts", "*-remove-members-"+dyn+".json"))
		if len(receipts) != 1 || !strings.Contains(stdout, "Receipt: "+receipts[0]+"\n") {
			t.Fatalf("receipts %v; stdout:\n%s", receipts, stdout)
		}
		if data, err := os.ReadFile(receipts[0]); err != nil || !strings.Contains(string(data), `"memberId": "`+victim+`"`) || !strings.Contains(string(data), `"removed": true`) {
			t.Fatalf("receipt %s (%v):\n%s", receipts[0], err, data)
		}
		giAfter := c.WaitStable(t, dyn, 2, 6)
		ids := memberIDsOf(giAfter)
		if len(ids) != 2 || ids[0] == victim || ids[1] == victim {
			t.Fatalf("members after: %v; %s should be gone", ids, victim)
		}
		var newID string
		for _, id := range ids {
			if _, ok := dynBefore.Member(id); !ok {
				newID = id
			}
		}
		if newID == "" {
			t.Fatalf("no new member id among %v", ids)
		}
		moved := ownerChanges(giBefore, giAfter)
		for _, want := range []string{
			victim + "  -            removed\n",
			"Group rb-dyn is Stable again after ",
			"\nLeft (1):\n",
			"\nNew members (1):\n",
			newID,
			// The removed member came back as the same client on the
			// same host: a rejoin, and only what changed client moved.
			"\n" + strconv.Itoa(moved) + " " + map[bool]string{true: "partition", false: "partitions"}[moved == 1] + " changed process, 1 member rejoined with a new id.\n",
			// The rounds are counted from the generations read, from
			// kfake's generation before the removal to the one after.
			fmt.Sprintf(", generation %d to %d", giBefore.Epoch, giAfter.Epoch),
			"\nPartitions that changed process (" + strconv.Itoa(moved) + "):\n",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
		}
	})

	t.Run("static member by instance id", func(t *testing.T) {
		before := c.GroupInfo(static)
		var oldID string
		for _, m := range before.Members {
			if m.InstanceID != nil && *m.InstanceID == "s2" {
				oldID = m.MemberID
			}
		}
		code, stdout, stderr := runKgroups(t, "-b", brokers, "rebalance", static, "--instance", "s2", "--execute", "--reason", "stuck consumer")
		if code != 0 {
			t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
		}
		after := c.WaitStable(t, static, 3, 6)
		var newID string
		for _, m := range after.Members {
			if m.InstanceID != nil && *m.InstanceID == "s2" {
				newID = m.MemberID
			}
		}
		if newID == "" || newID == oldID {
			t.Fatalf("s2 is %q after removal, was %q: want it back under a new id", newID, oldID)
		}
		for _, want := range []string{
			"instance-id", "keeps its partitions only if it rejoins within the session timeout",
			`Reason sent to the broker: "stuck consumer"`,
			oldID + "  s2           removed\n",
			"Group rb-static is Stable again after ",
			"\nNew members (1):\n", newID,
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
		}
	})

	t.Run("static members rejoin with their partitions", func(t *testing.T) {
		before := c.WaitStable(t, static, 3, 6)
		code, stdout, stderr := runKgroups(t, "-b", brokers, "rebalance", static, "--instance", "s1", "--instance", "s3", "--execute")
		if code != 0 {
			t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
		}
		after := c.WaitStable(t, static, 3, 6)
		if n := ownerChanges(before, after); n != 0 {
			t.Fatalf("kfake shows %d partitions changed instance; round robin over instance ids gives each its own back", n)
		}
		for _, want := range []string{
			"\nLeft (2):\n", "\nNew members (2):\n",
			"\n0 partitions changed process, 2 members rejoined with new ids.\n",
			"\nPartitions that changed process (0):\n",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
		}
	})

	t.Run("JSON: static members rejoin with their partitions", func(t *testing.T) {
		before := c.WaitStable(t, static, 3, 6)
		code, stdout, stderr := runKgroups(t, "-b", brokers, "rebalance", static, "--instance", "s1,s2", "--execute", "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
		}
		after := c.WaitStable(t, static, 3, 6)
		var doc struct {
			Group    string `json:"group"`
			Executed bool   `json:"executed"`
			Targets  []struct {
				InstanceID string `json:"instanceId"`
				Method     string `json:"method"`
			} `json:"targets"`
			Receipt *string `json:"receipt"`
			Results []struct {
				Result string  `json:"result"`
				Error  *string `json:"error"`
			} `json:"results"`
			Outcome *struct {
				Settled           bool     `json:"settled"`
				MovedByProcess    int      `json:"movedByProcess"`
				Rejoined          int      `json:"rejoined"`
				Left              []string `json:"left"`
				Joined            []string `json:"joined"`
				RoundsKnown       bool     `json:"roundsKnown"`
				Rounds            int      `json:"rounds"`
				RoundKinds        []string `json:"roundKinds"`
				FromGeneration    int32    `json:"fromGeneration"`
				ToGeneration      int32    `json:"toGeneration"`
				RoundsMayBeMissed bool     `json:"roundsMayBeMissed"`
			} `json:"outcome"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
		}
		if doc.Group != static || !doc.Executed || len(doc.Targets) != 2 || doc.Targets[0].Method != "instance-id" || doc.Receipt == nil ||
			len(doc.Results) != 2 || doc.Results[0].Result != "removed" || doc.Results[1].Result != "removed" || doc.Outcome == nil {
			t.Fatalf("document:\n%s", stdout)
		}
		o := doc.Outcome
		if !o.Settled || o.MovedByProcess != 0 || o.Rejoined != 2 || len(o.Left) != 2 || len(o.Joined) != 2 {
			t.Fatalf("outcome %+v; want settled, 0 moved by process, 2 rejoined, 2 left, 2 joined", *o)
		}
		t.Logf("kfake generations %d -> %d; outcome %+v", before.Epoch, after.Epoch, *o)
		// A dry run's document has the targets, no receipt and no outcome.
		code, stdout, stderr = runKgroups(t, "-b", brokers, "rebalance", static, "--instance", "s3", "-o", "json")
		if code != 0 || !strings.Contains(stdout, `"executed": false`) || !strings.Contains(stdout, `"receipt": null`) ||
			!strings.Contains(stdout, `"outcome": null`) || !strings.Contains(stdout, `"instanceId": "s3"`) || strings.Contains(stdout, "Dry run") {
			t.Fatalf("dry run -o json: exit %d: %s\n%s", code, stderr, stdout)
		}
		if !o.RoundsKnown || o.FromGeneration != before.Epoch || o.ToGeneration != after.Epoch || len(o.RoundKinds) != o.Rounds ||
			(o.RoundsMayBeMissed && o.Rounds >= int(o.ToGeneration-o.FromGeneration)) || (!o.RoundsMayBeMissed && o.Rounds != int(o.ToGeneration-o.FromGeneration)) {
			t.Fatalf("rounds %+v; kfake's generation went from %d to %d", *o, before.Epoch, after.Epoch)
		}
	})

	t.Run("KIP-848 member: the broker's answer", func(t *testing.T) {
		id := k848Before.Members[0].MemberID
		code, stdout, stderr := runKgroups(t, "-b", brokers, "rebalance", k848, "--member", id, "--execute")
		if code != 1 {
			t.Fatalf("exit %d, want 1: %s\n%s", code, stderr, stdout)
		}
		if want := "Broker's answer for " + id + ": UNKNOWN_MEMBER_ID: "; !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
		if !strings.Contains(stderr, "the broker removed no member") {
			t.Errorf("stderr %q", stderr)
		}
		s, err := c.Client(t).PollGroups(context.Background(), k848)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := s.Group(k848)
		if _, ok := g.Member(id); !ok || len(g.Members) != 2 {
			t.Errorf("the refused removal changed the group: %+v", g.Members)
		}
	})
}
