package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// shareCLICluster has
//
//	share-jobs   a share group of two real kgo members on topic jobs (3
//	             partitions, 10 records each), all acknowledged
//	g-classic    an Empty classic group with a commit on jobs/0
type shareCLICluster struct {
	*kafkatest.Cluster
	brokers string
	members []*kafkatest.Member
}

func startShareCluster(t *testing.T) *shareCLICluster {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "jobs", 3)
	for p := range int32(3) {
		c.Produce(t, "jobs", p, 10, time.Time{})
	}
	c.Commit(t, "g-classic", map[string]map[int32]int64{"jobs": {0: 4}})
	c.ShareEarliest("share-jobs")
	sc := &shareCLICluster{Cluster: c, brokers: strings.Join(c.Addrs, ",")}
	sc.members = []*kafkatest.Member{
		c.JoinShare(t, "share-jobs", []string{"jobs"}),
		c.JoinShare(t, "share-jobs", []string{"jobs"}),
	}
	sc.waitStarts(t, "share-jobs", 2, []int64{10, 10, 10})
	return sc
}

// waitStarts waits until the broker reports the share group with members
// members, every partition assigned, and these start offsets on jobs.
// It also waits until the group has settled: every member has taken the
// group's epoch in a heartbeat of its own. Until then a member's epoch
// moves with its next heartbeat, so two reads of the group a moment
// apart could differ; once settled, nothing moves until a member joins
// or leaves.
func (c *shareCLICluster) waitStarts(t *testing.T, group string, members int, starts []int64) {
	t.Helper()
	kafkatest.Eventually(t, fmt.Sprintf("%s with %d members at %v, settled", group, members, starts), func() bool {
		dg, ok := c.shareView(group)
		if !ok || len(dg.Members) != members || (members > 0 && (dg.GroupState != "Stable" || len(dg.AssignedPartitions()["jobs"]) != len(starts))) {
			return false
		}
		for _, m := range dg.Members {
			if len(m.Assignment) == 0 || m.MemberEpoch != dg.GroupEpoch || dg.AssignmentEpoch != dg.GroupEpoch {
				return false
			}
		}
		offs, err := c.Admin().DescribeShareGroupOffsets(context.Background(), group)
		if err != nil {
			return false
		}
		for p, want := range starts {
			if so, ok := offs[group].Offsets.Lookup("jobs", int32(p)); !ok || so.StartOffset != want {
				return false
			}
		}
		return true
	})
}

// shareView is the broker's own view of a share group.
func (c *shareCLICluster) shareView(group string) (kadm.DescribedShareGroup, bool) {
	d, err := c.Admin().DescribeShareGroups(context.Background(), group)
	if err != nil {
		return kadm.DescribedShareGroup{}, false
	}
	dg, ok := d[group]
	return dg, ok && dg.Err == nil
}

func (c *shareCLICluster) kg(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return kg(t, append([]string{"-b", c.brokers}, args...)...)
}

// align renders rows as kgroups' tables do: columns two spaces apart, the
// right-aligned ones (by index) padded on the left, trailing spaces cut.
func align(right map[int]bool, rows ...[]string) string {
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		var l strings.Builder
		for i, c := range r {
			if i > 0 {
				l.WriteString("  ")
			}
			pad := strings.Repeat(" ", w[i]-len(c))
			if right[i] {
				l.WriteString(pad + c)
			} else {
				l.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	return b.String()
}

func TestShareGroupCLI(t *testing.T) {
	c := startShareCluster(t)
	dg, ok := c.shareView("share-jobs")
	if !ok {
		t.Fatal("no broker view of share-jobs")
	}
	coord := strconv.Itoa(int(dg.Coordinator.NodeID))

	t.Run("list shows the type and --type filters", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "list")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "list", stdout, align(map[int]bool{4: true, 5: true, 6: true, 7: true, 8: true},
			[]string{"GROUP", "TYPE", "STATE", "ASSIGNOR", "MEMBERS", "TOPICS", "PARTITIONS", "LAG", "COORDINATOR"},
			[]string{"g-classic", "classic", "Empty", "-", "0", "1", "1", "6", strconv.Itoa(int(c.CoordinatorFor("g-classic")))},
			[]string{"share-jobs", "share", "Stable", dg.Assignor, "2", "1", "3", "0", coord},
		))
		for _, args := range [][]string{{"--type", "share"}, {"--type", "SHARE,streams"}, {"--type", "streams", "--type", "share"}} {
			code, stdout, stderr = c.kg(t, append([]string{"list", "-o", "json"}, args...)...)
			expectRun(t, code, stderr, 0, "")
			if got := listNames(t, stdout); fmt.Sprint(got) != "[share-jobs=0]" {
				t.Errorf("%v: %v, want [share-jobs=0]", args, got)
			}
		}
		code, stdout, stderr = c.kg(t, "list", "--type", "classic,consumer", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		if got := listNames(t, stdout); fmt.Sprint(got) != "[g-classic=6]" {
			t.Errorf("--type classic,consumer: %v", got)
		}
		code, stdout, stderr = c.kg(t, "list", "--type", "bogus")
		if code != 2 || stdout != "" || stderr != "kgroups: invalid --type \"bogus\": accepted values are classic, consumer, share, streams (any case)\nRun 'kgroups list --help' for usage.\n" {
			t.Errorf("--type bogus: exit %d stdout %q stderr %q", code, stdout, stderr)
		}
	})

	t.Run("describe tables agree with the broker", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", "share-jobs")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "describe", stdout, align(map[int]bool{2: true, 3: true, 4: true},
			[]string{"GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"},
			[]string{"share-jobs", "jobs", "0", "10", "0"},
			[]string{"share-jobs", "jobs", "1", "10", "0"},
			[]string{"share-jobs", "jobs", "2", "10", "0"},
		))

		// --members: the broker's members, largest assignment first.
		ms := append([]kadm.ShareGroupMember(nil), dg.Members...)
		count := func(m kadm.ShareGroupMember) int {
			n := 0
			for _, tp := range m.Assignment.Sorted() {
				n += len(tp.Partitions)
			}
			return n
		}
		sort.SliceStable(ms, func(i, j int) bool {
			if count(ms[i]) != count(ms[j]) {
				return count(ms[i]) > count(ms[j])
			}
			return ms[i].MemberID < ms[j].MemberID
		})
		rows := [][]string{{"GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"}}
		owners := map[int32][]string{}
		for _, m := range ms {
			var ps []string
			for _, tp := range m.Assignment.Sorted() {
				for _, p := range tp.Partitions {
					ps = append(ps, strconv.Itoa(int(p)))
					owners[p] = append(owners[p], m.MemberID)
				}
			}
			rows = append(rows, []string{"share-jobs", m.MemberID, m.ClientHost, m.ClientID, strconv.Itoa(count(m)), "jobs:" + strings.Join(ps, ",")})
		}
		code, stdout, stderr = c.kg(t, "describe", "share-jobs", "--members")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "--members", stdout, align(map[int]bool{4: true}, rows...))

		code, stdout, stderr = c.kg(t, "describe", "share-jobs", "--state")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "--state", stdout, align(map[int]bool{3: true, 4: true, 5: true},
			[]string{"GROUP", "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS"},
			[]string{"share-jobs", fmt.Sprintf("%s:%d (%d)", dg.Coordinator.Host, dg.Coordinator.Port, dg.Coordinator.NodeID), "Stable",
				strconv.Itoa(int(dg.GroupEpoch)), strconv.Itoa(int(dg.AssignmentEpoch)), "2"},
		))

		// --wide lists every member a partition is assigned to.
		code, stdout, stderr = c.kg(t, "describe", "share-jobs", "--wide")
		expectRun(t, code, stderr, 0, "")
		wide := [][]string{{"GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG", "LOG-START-OFFSET", "LOG-END-OFFSET", "MEMBERS"}}
		for p := range int32(3) {
			o := append([]string(nil), owners[p]...)
			sort.Strings(o)
			wide = append(wide, []string{"share-jobs", "jobs", strconv.Itoa(int(p)), "10", "0", "0", "10", strings.Join(o, ",")})
		}
		expectText(t, "--wide", stdout, align(map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true}, wide...))
	})

	t.Run("json", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", "share-jobs", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		var doc struct {
			Groups []map[string]json.RawMessage `json:"groups"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Groups) != 1 {
			t.Fatalf("json: %v\n%s", err, stdout)
		}
		g := doc.Groups[0]
		for k, want := range map[string]string{
			"type": `"share"`, "state": `"Stable"`, "lagSource": `"broker"`, "totalLag": "0",
			"groupEpoch": strconv.Itoa(int(dg.GroupEpoch)), "assignmentEpoch": strconv.Itoa(int(dg.AssignmentEpoch)),
		} {
			if string(g[k]) != want {
				t.Errorf("%s: %s, want %s", k, g[k], want)
			}
		}
		var parts []struct {
			Partition       int32    `json:"partition"`
			CommittedOffset *int64   `json:"committedOffset"`
			StartOffset     *int64   `json:"startOffset"`
			LogEndOffset    *int64   `json:"logEndOffset"`
			Lag             *int64   `json:"lag"`
			Owners          []string `json:"owners"`
		}
		if err := json.Unmarshal(g["partitions"], &parts); err != nil || len(parts) != 3 {
			t.Fatalf("partitions: %v %s", err, g["partitions"])
		}
		for _, p := range parts {
			if p.CommittedOffset != nil || p.StartOffset == nil || *p.StartOffset != 10 || p.LogEndOffset == nil || *p.LogEndOffset != 10 || p.Lag == nil || *p.Lag != 0 || len(p.Owners) == 0 {
				t.Errorf("partition %d: %+v, want committedOffset null, startOffset 10, logEndOffset 10, lag 0", p.Partition, p)
			}
		}
		if !strings.Contains(string(g["partitions"]), `"committedOffset": null`) {
			t.Errorf("committedOffset is not null: %s", g["partitions"])
		}
		var members []struct {
			MemberID    string `json:"memberId"`
			ClientID    string `json:"clientId"`
			MemberEpoch int32  `json:"memberEpoch"`
			Assignment  []struct {
				Topic      string  `json:"topic"`
				Partitions []int32 `json:"partitions"`
			} `json:"assignment"`
		}
		if err := json.Unmarshal(g["members"], &members); err != nil || len(members) != 2 {
			t.Fatalf("members: %v %s", err, g["members"])
		}
		for i, m := range members {
			bm := dg.Members[i]
			want := bm.Assignment.Sorted()
			if m.MemberID != bm.MemberID || m.ClientID != bm.ClientID || m.MemberEpoch != bm.MemberEpoch || len(m.Assignment) != 1 ||
				fmt.Sprint(m.Assignment[0].Partitions) != fmt.Sprint(want[0].Partitions) {
				t.Errorf("member %d: %+v, broker %+v", i, m, bm)
			}
		}
	})

	t.Run("classic-only actions are refused", func(t *testing.T) {
		for _, tc := range []struct {
			args   []string
			stderr string
		}{
			{[]string{"rebalance", "share-jobs", "--member", dg.Members[0].MemberID, "--execute"},
				"kgroups: group \"share-jobs\" is a share group: rebalance is not available for share groups (the broker assigns a share group's partitions to all its members at once and Kafka has no request to remove a share-group member); nothing was sent\n"},
			{[]string{"rebalance", "share-jobs", "--all"},
				"kgroups: group \"share-jobs\" is a share group: rebalance is not available for share groups (the broker assigns a share group's partitions to all its members at once and Kafka has no request to remove a share-group member); nothing was sent\n"},
			{[]string{"simulate", "share-jobs", "--join", "1"},
				"kgroups: group \"share-jobs\" is a share group: simulate is not available for share groups (the broker assigns a share group's partitions; there is no client assignor to simulate); nothing was sent\n"},
		} {
			code, stdout, stderr := c.kg(t, tc.args...)
			if code != 1 || stdout != "" || stderr != tc.stderr {
				t.Errorf("%q: exit %d stdout %q stderr %q, want exit 1 and %q", tc.args, code, stdout, stderr, tc.stderr)
			}
		}
		// Both members are still there, unchanged.
		after, _ := c.shareView("share-jobs")
		if len(after.Members) != 2 || after.GroupEpoch != dg.GroupEpoch {
			t.Errorf("after the refusals: %d members epoch %d, want 2 and %d", len(after.Members), after.GroupEpoch, dg.GroupEpoch)
		}
	})
}

// TestShareGroupHealth judges share groups on their start offsets:
//
//	share-jobs   records arrive on jobs/1 while health samples; its members
//	             acknowledge them at two polls early in the window (their
//	             rhythm) and then stop: the start offset stands with lag
//	             past twice that rhythm and the floor: STALL. (The window
//	             is 3s: acknowledging takes the members a few polls on a
//	             loaded machine, and the silence after must still be
//	             twice the longest of those waits. Stopped
//	             since before the window, it would be JUDGING: no rhythm
//	             seen.)
//	share-idle   no members, 6 records behind on jobs/0: STOP
func TestShareGroupHealth(t *testing.T) {
	c := startShareCluster(t)
	idle := make(kadm.Offsets)
	idle.AddOffset("jobs", 0, 4, -1)
	if resp, err := c.Admin().AlterShareGroupOffsets(context.Background(), "share-idle", idle); err != nil || resp.Error() != nil {
		t.Fatalf("share-idle: %v %v", err, resp.Error())
	}
	for _, m := range c.members {
		m.StopPolling()
	}
	c.Produce(t, "jobs", 1, 5, time.Time{})

	// Records keep arriving on jobs/1 while health samples.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
				c.Produce(t, "jobs", 1, 1, time.Time{})
			}
		}
	}()
	acked := c.ackDuringWindow(t)
	code, stdout, stderr := c.kg(t, "health", "share-jobs", "share-idle", "--window", "3s", "--interval", "200ms", "-o", "json")
	close(stop)
	<-done
	if err := <-acked; err != nil {
		t.Fatal(err)
	}
	expectRun(t, code, stderr, 0, "")
	var doc healthJSON
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Groups) != 2 {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	byName := map[string]int{}
	for i, g := range doc.Groups {
		byName[g.Group] = i
	}
	jobs, idleG := doc.Groups[byName["share-jobs"]], doc.Groups[byName["share-idle"]]
	if jobs.Status != "STALL" || jobs.Severity != "ERR" || jobs.Verdict == nil || *jobs.Verdict != "ERR STALL" {
		t.Errorf("share-jobs: %s %s %v, want ERR STALL:\n%s", jobs.Status, jobs.Severity, jobs.Judging, stdout)
	}
	statuses := map[int32]string{}
	for _, p := range jobs.Partitions {
		statuses[p.Partition] = p.Status
		if p.Partition == 1 && (p.CommittedOffset == nil || *p.CommittedOffset <= 15 || p.Lag == nil || *p.Lag < 5) {
			t.Errorf("jobs/1: start %v lag %v, want a start past 15 (acknowledged in the window) and lag at least 5", p.CommittedOffset, p.Lag)
		}
	}
	if fmt.Sprint(statuses) != "map[0:OK 1:STALL 2:OK]" {
		t.Errorf("share-jobs partitions %v, want jobs/1 STALL and the rest OK", statuses)
	}
	if idleG.Status != "STOP" || idleG.Severity != "ERR" || idleG.TotalLag == nil || *idleG.TotalLag != 6 {
		t.Errorf("share-idle: %s %s lag %v, want ERR STOP with lag 6", idleG.Status, idleG.Severity, idleG.TotalLag)
	}
	if len(idleG.Partitions) != 1 || idleG.Partitions[0].Status != "STOP" || *idleG.Partitions[0].CommittedOffset != 4 || *idleG.Partitions[0].LogEndOffset != 10 {
		t.Errorf("share-idle partitions %+v, want jobs/0 STOP at 4 of 10", idleG.Partitions)
	}
}

// ackDuringWindow gives share-jobs's stopped members the rhythm real ones
// have before they stop: once kgroups has fetched share-jobs's start
// offsets twice, they poll until the start offset of jobs/1 moves (a
// share member acknowledges on its next poll what the one before
// delivered), and twice again, each once a fetch has seen the move
// before (a rhythm seen twice: one wait is no rhythm yet); then they poll
// no more. It returns a channel that yields the result.
func (c *shareCLICluster) ackDuringWindow(t *testing.T) <-chan error {
	t.Helper()
	fetched := make(chan struct{}, 1)
	var n atomic.Int32
	var self atomic.Bool // the test's own reads of the start offset
	c.ControlKey(int16(kmsg.DescribeShareGroupOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		asks := false
		for _, g := range req.(*kmsg.DescribeShareGroupOffsetsRequest).Groups {
			asks = asks || g.GroupID == "share-jobs"
		}
		if asks && !self.Load() && n.Add(1) >= 2 {
			select {
			case fetched <- struct{}{}:
			default:
			}
		}
		return nil, nil, false
	})
	start := func() int64 {
		self.Store(true)
		defer self.Store(false)
		offs, err := c.Admin().DescribeShareGroupOffsets(context.Background(), "share-jobs")
		if err != nil {
			return -1
		}
		so, _ := offs["share-jobs"].Offsets.Lookup("jobs", 1)
		return so.StartOffset
	}
	done := make(chan error, 1)
	go func() {
		for range 3 {
			// A fetch handled after the previous move: it saw it.
			select {
			case <-fetched:
			default:
			}
			select {
			case <-fetched:
			case <-time.After(kafkatest.WaitTimeout):
				done <- errors.New("kgroups stopped fetching share-jobs's start offsets")
				return
			}
			from := start()
			deadline := time.Now().Add(kafkatest.WaitTimeout)
			for start() == from {
				if time.Now().After(deadline) {
					done <- errors.New("share-jobs's start offset on jobs/1 never moved")
					return
				}
				var wg sync.WaitGroup
				for _, m := range c.members {
					wg.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
						defer cancel()
						m.Client.PollFetches(ctx)
					})
				}
				wg.Wait()
			}
		}
		done <- nil
	}()
	return done
}
