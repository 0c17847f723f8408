package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// readCluster is a kfake cluster with one real group per kind that the read
// commands must get right. Every group has the same commits:
//
//	orders (6 partitions, log end 10+p): 0->1, 1->5, 2->12, 3->3, 4->10, 5 none
//	audit  (2 partitions, log end 0 and 7): 1->3, which no member owns
//
// so lags are 9, 6, 0, 10, 4, -, and 4 on audit/1: 33 in all. g-idle is an
// Empty group with commits orders/0->2 and audit/1->7 (lags 8 and 0).
type readCluster struct {
	*kafkatest.Cluster
	brokers string           // the -b value
	addr    map[int32]string // broker id -> host:port
}

const (
	groupRange = "g-range" // classic, range, members range-a and range-b
	groupRR    = "g-rr"    // classic, roundrobin, static members rr-a, rr-b, rr-c
	groupCoop  = "g-coop"  // classic, cooperative-sticky, coop-a and coop-b
	group848   = "g-848"   // KIP-848, server assignor range, k848-a and k848-b
	groupIdle  = "g-idle"  // Empty, commits only
)

func startReadCluster(t *testing.T) *readCluster {
	t.Helper()
	// No configuration file or environment may leak in from the machine.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	c.CreateTopic(t, "audit", 2)
	for p := range int32(6) {
		if leo := c.Produce(t, "orders", p, 10+int(p), zeroTime); leo != int64(10+p) {
			t.Fatalf("orders/%d log end %d, want %d", p, leo, 10+p)
		}
	}
	c.Produce(t, "audit", 1, 7, zeroTime)
	commits := map[string]map[int32]int64{
		"orders": {0: 1, 1: 5, 2: 12, 3: 3, 4: 10},
		"audit":  {1: 3},
	}
	for _, g := range []string{groupRange, groupRR, groupCoop, group848} {
		c.Commit(t, g, commits)
	}
	c.Commit(t, groupIdle, map[string]map[int32]int64{"orders": {0: 2}, "audit": {1: 7}})

	orders := []string{"orders"}
	for _, id := range []string{"range-a", "range-b"} {
		c.Join(t, groupRange, orders, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID(id))
	}
	for _, id := range []string{"rr-a", "rr-b", "rr-c"} {
		c.Join(t, groupRR, orders, kgo.Balancers(kgo.RoundRobinBalancer()), kgo.ClientID(id), kgo.InstanceID(id))
	}
	for _, id := range []string{"coop-a", "coop-b"} {
		c.Join(t, groupCoop, orders, kgo.Balancers(kgo.CooperativeStickyBalancer()), kgo.ClientID(id))
	}
	for _, id := range []string{"k848-a", "k848-b"} {
		c.Join(t, group848, orders, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID(id))
	}
	c.WaitStable(t, groupRange, 2, 6)
	c.WaitStable(t, groupRR, 3, 6)
	c.WaitStable(t, groupCoop, 2, 6)
	c.WaitStable(t, group848, 2, 6)

	// Wait until kgroups' own view has settled too: every group Stable, the
	// KIP-848 members holding their target assignment.
	cl := c.Client(t)
	kafkatest.Eventually(t, "every group to settle as kgroups sees it", func() bool {
		s, err := cl.Poll(context.Background())
		if err != nil {
			return false
		}
		for name, n := range map[string]int{groupRange: 2, groupRR: 3, groupCoop: 2, group848: 2} {
			g, ok := s.Group(name)
			if !ok || g.Err != nil || g.State != kafka.StateStable || len(g.Members) != n {
				return false
			}
			for _, m := range g.Members {
				if m.PartitionCount() != 6/n {
					return false
				}
				if g.Type == kafka.TypeConsumer && !reflect.DeepEqual(m.Assignment, m.Target) {
					return false
				}
			}
		}
		g, ok := s.Group(groupIdle)
		return ok && g.State == kafka.StateEmpty
	})

	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	meta, err := c.Admin().BrokerMetadata(ctx)
	if err != nil {
		t.Fatalf("broker metadata: %v", err)
	}
	addr := map[int32]string{}
	for _, b := range meta.Brokers {
		addr[b.NodeID] = b.Host + ":" + strconv.Itoa(int(b.Port))
	}
	if len(addr) != 3 {
		t.Fatalf("metadata lists %d brokers, want 3", len(addr))
	}
	return &readCluster{Cluster: c, brokers: strings.Join(c.Addrs, ","), addr: addr}
}

var zeroTime time.Time

// member is one group member as the broker sees it.
type member struct {
	id, instance, host, client string
	parts                      []int32 // orders partitions, sorted
}

// brokerMembers returns the broker's own view of a group's members, sorted
// by member id, checking the lengths that the exact tables below assume.
func (c *readCluster) brokerMembers(t *testing.T, group string, idLen int) []member {
	t.Helper()
	gi := c.GroupInfo(group)
	if gi == nil {
		t.Fatalf("group %s does not exist", group)
	}
	var out []member
	for _, gm := range gi.Members {
		m := member{id: gm.MemberID, host: gm.ClientHost, client: gm.ClientID, parts: slices.Sorted(slices.Values(gm.Assignment["orders"]))}
		if gm.InstanceID != nil {
			m.instance = *gm.InstanceID
		}
		if len(m.id) != idLen || len(m.host) != len("127.0.0.1:12345") {
			t.Fatalf("member id %q (want %d characters) or host %q (want 127.0.0.1 and a five-digit port): the expected tables assume both", m.id, idLen, m.host)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// coordinator is the --state cell for a group's coordinator.
func (c *readCluster) coordinator(group string) string {
	id := c.CoordinatorFor(group)
	return fmt.Sprintf("%s (%d)", c.addr[id], id)
}

// kg runs kgroups in-process against the cluster.
func (c *readCluster) kg(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return kg(t, append([]string{"-b", c.brokers}, args...)...)
}

func kg(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	var out, errOut bytes.Buffer
	code = run(ctx, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func sp(n int) string { return strings.Repeat(" ", n) }

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func expectText(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n--- got ---\n%s--- want ---\n%s--- got (quoted) ---\n%q", what, got, want, got)
	}
}

func expectRun(t *testing.T, code int, stderr string, wantCode int, wantStderr string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("exit code %d, want %d (stderr %q)", code, wantCode, stderr)
	}
	expectText(t, "stderr", stderr, wantStderr)
}

// ordersCells are the TOPIC..LAG cells of each orders partition (and
// auditCells of audit/1) in a table whose TOPIC column is six wide.
var ordersCells = map[int32]string{
	0: "orders          0               1              10    9  ",
	1: "orders          1               5              11    6  ",
	2: "orders          2              12              12    0  ",
	3: "orders          3               3              13   10  ",
	4: "orders          4              10              14    4  ",
	5: "orders          5               -              15    -  ",
}

const auditCells = "audit           1               3               7    4  "

// offsetsTable is the exact describe table of a group with the shared
// commits, members in the order given, each id idLen long.
func offsetsTable(group string, groupWidth, idLen int, ms []member) string {
	g := group + sp(groupWidth-len(group)+2)
	out := []string{
		"GROUP" + sp(groupWidth-5+2) + "TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID" + sp(idLen-11) + "  HOST" + sp(11) + "  CLIENT-ID",
	}
	for _, m := range ms {
		for _, p := range m.parts {
			out = append(out, g+ordersCells[p]+m.id+"  "+m.host+"  "+m.client)
		}
	}
	out = append(out, g+auditCells+"-"+sp(idLen-1)+"  -"+sp(14)+"  -")
	return lines(out...)
}

func TestDescribe(t *testing.T) {
	c := startReadCluster(t)

	t.Run("range", func(t *testing.T) {
		ms := c.brokerMembers(t, groupRange, len("range-a-")+32)
		// Range over sorted member ids: range-a's id sorts first and gets
		// partitions 0-2; both have three, so range-a is listed first.
		if ms[0].client != "range-a" || !slices.Equal(ms[0].parts, []int32{0, 1, 2}) || !slices.Equal(ms[1].parts, []int32{3, 4, 5}) {
			t.Fatalf("broker's range assignment %+v", ms)
		}
		code, stdout, stderr := c.kg(t, "describe", groupRange)
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, offsetsTable(groupRange, 7, 40, ms))
		// Spelled out once in full, so the helper cannot hide a mistake.
		a, b := ms[0], ms[1]
		expectText(t, "stdout (literal)", stdout, lines(
			"GROUP    TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID                               HOST             CLIENT-ID",
			"g-range  orders          0               1              10    9  "+a.id+"  "+a.host+"  range-a",
			"g-range  orders          1               5              11    6  "+a.id+"  "+a.host+"  range-a",
			"g-range  orders          2              12              12    0  "+a.id+"  "+a.host+"  range-a",
			"g-range  orders          3               3              13   10  "+b.id+"  "+b.host+"  range-b",
			"g-range  orders          4              10              14    4  "+b.id+"  "+b.host+"  range-b",
			"g-range  orders          5               -              15    -  "+b.id+"  "+b.host+"  range-b",
			"g-range  audit           1               3               7    4  -                                         -                -",
		))
	})

	t.Run("roundrobin static members", func(t *testing.T) {
		ms := c.brokerMembers(t, groupRR, len("rr-a-")+32)
		for i, m := range ms {
			if want := []int32{int32(i), int32(i + 3)}; !slices.Equal(m.parts, want) || m.instance != m.client {
				t.Fatalf("broker's roundrobin member %d: %+v, want partitions %v and instance id = client id", i, m, want)
			}
		}
		code, stdout, stderr := c.kg(t, "describe", groupRR)
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, offsetsTable(groupRR, 5, 37, ms))

		code, stdout, stderr = c.kg(t, "describe", groupRR, "--members")
		expectRun(t, code, stderr, 0, "")
		want := []string{"GROUP  CONSUMER-ID" + sp(26) + "  GROUP-INSTANCE-ID  HOST" + sp(11) + "  CLIENT-ID  #PARTITIONS"}
		for _, m := range ms {
			want = append(want, "g-rr   "+m.id+"  "+m.instance+sp(13)+"  "+m.host+"  "+m.client+sp(5)+"  "+sp(10)+"2")
		}
		expectText(t, "members", stdout, lines(want...))
	})

	t.Run("cooperative-sticky", func(t *testing.T) {
		ms := c.brokerMembers(t, groupCoop, len("coop-a-")+32)
		code, stdout, stderr := c.kg(t, "describe", groupCoop)
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, offsetsTable(groupCoop, 6, 39, ms))
	})

	t.Run("KIP-848", func(t *testing.T) {
		ms := c.brokerMembers(t, group848, 24) // kgo's base64 UUIDs
		code, stdout, stderr := c.kg(t, "describe", group848)
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, offsetsTable(group848, 5, 24, ms))
	})

	t.Run("empty group", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", groupIdle)
		expectRun(t, code, stderr, 0, "Consumer group 'g-idle' has no active members.\n")
		expectText(t, "stdout", stdout, lines(
			"GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID",
			"g-idle  audit           1               7               7    0  -            -     -",
			"g-idle  orders          0               2              10    8  -            -     -",
		))
		code, stdout, stderr = c.kg(t, "describe", groupIdle, "--members")
		expectRun(t, code, stderr, 0, "Consumer group 'g-idle' has no active members.\n")
		expectText(t, "members stdout", stdout, "")
	})

	t.Run("several groups and wide", func(t *testing.T) {
		ms := c.brokerMembers(t, groupRange, 40)
		code, stdout, stderr := c.kg(t, "describe", groupIdle, groupRange, "--wide")
		expectRun(t, code, stderr, 0, "Consumer group 'g-idle' has no active members.\n")
		want := lines(
			"GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  LOG-START-OFFSET",
			"g-idle  audit           1               7               7    0  -            -     -                         0",
			"g-idle  orders          0               2              10    8  -            -     -                         0",
		) + "\n" + lines(
			"GROUP    TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID"+sp(29)+"  HOST"+sp(11)+"  CLIENT-ID  LOG-START-OFFSET",
			"g-range  "+ordersCells[0]+ms[0].id+"  "+ms[0].host+"  range-a    "+sp(15)+"0",
			"g-range  "+ordersCells[1]+ms[0].id+"  "+ms[0].host+"  range-a    "+sp(15)+"0",
			"g-range  "+ordersCells[2]+ms[0].id+"  "+ms[0].host+"  range-a    "+sp(15)+"0",
			"g-range  "+ordersCells[3]+ms[1].id+"  "+ms[1].host+"  range-b    "+sp(15)+"0",
			"g-range  "+ordersCells[4]+ms[1].id+"  "+ms[1].host+"  range-b    "+sp(15)+"0",
			"g-range  "+ordersCells[5]+ms[1].id+"  "+ms[1].host+"  range-b    "+sp(15)+"0",
			"g-range  "+auditCells+"-"+sp(39)+"  -"+sp(14)+"  -"+sp(8)+"  "+sp(15)+"0",
		)
		expectText(t, "stdout", stdout, want)

		code, stdout, stderr = c.kg(t, "describe", groupRange, "--members", "--wide")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "members wide", stdout, lines(
			"GROUP    CONSUMER-ID"+sp(29)+"  GROUP-INSTANCE-ID  HOST"+sp(11)+"  CLIENT-ID  #PARTITIONS  ASSIGNMENT",
			"g-range  "+ms[0].id+"  -"+sp(16)+"  "+ms[0].host+"  range-a    "+sp(10)+"3  orders(0,1,2)",
			"g-range  "+ms[1].id+"  -"+sp(16)+"  "+ms[1].host+"  range-b    "+sp(10)+"3  orders(3,4,5)",
		))
	})

	t.Run("state", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", groupRange, group848, groupIdle, "--state")
		expectRun(t, code, stderr, 0, "Consumer group 'g-idle' has no active members.\n")
		expectText(t, "stdout", stdout, lines(
			"GROUP    COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE   #MEMBERS  LEADER",
			"g-range  "+c.coordinator(groupRange)+"  range                Stable         2  Java/franz-go",
			"",
			"GROUP  COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE   #MEMBERS  LEADER",
			"g-848  "+c.coordinator(group848)+"  range                Stable         2  -",
			"",
			"GROUP   COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE  #MEMBERS  LEADER",
			"g-idle  "+c.coordinator(groupIdle)+"  -                    Empty         0  -",
		))
		if len(c.coordinator(groupRange)) != 19 {
			t.Fatalf("coordinator %q: the table above assumes 127.0.0.1:PPPPP (N)", c.coordinator(groupRange))
		}
	})

	t.Run("all groups", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", "--all-groups", "--state")
		expectRun(t, code, stderr, 0, "Consumer group 'g-idle' has no active members.\n")
		var got []string
		for _, l := range strings.Split(stdout, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] != "GROUP" {
				got = append(got, strings.Join(append([]string{f[0]}, f[len(f)-3:]...), " "))
			}
		}
		// The members' client ids are no client's default, but kgo's
		// metadata (version 3) is franz-go's and the Java client's layout,
		// under every assignor (LEADER is tested against each client in
		// views/render's TestDescribeStateLeader).
		want := []string{"g-848 Stable 2 -", "g-coop Stable 2 Java/franz-go", "g-idle Empty 0 -", "g-range Stable 2 Java/franz-go", "g-rr Stable 3 Java/franz-go"}
		if !slices.Equal(got, want) {
			t.Errorf("all groups --state rows %q, want %q", got, want)
		}
	})

	t.Run("unknown group", func(t *testing.T) {
		ms := c.brokerMembers(t, groupRange, 40)
		code, stdout, stderr := c.kg(t, "describe", "nope", groupRange, "also-missing")
		expectRun(t, code, stderr, 1, "kgroups: group \"nope\" not found\nkgroups: group \"also-missing\" not found\n")
		// The group that exists is still printed.
		expectText(t, "stdout", stdout, offsetsTable(groupRange, 7, 40, ms))

		code, stdout, stderr = c.kg(t, "describe", "nope", "-o", "json")
		expectRun(t, code, stderr, 1, "kgroups: group \"nope\" not found\n")
		expectText(t, "json", stdout, "{\n  \"groups\": []\n}\n")
	})

	t.Run("json", func(t *testing.T) { testDescribeJSON(t, c) })

	t.Run("reads do not disturb members", func(t *testing.T) { testReadsDoNotDisturb(t, c) })
}

// jsonDoc mirrors the documented JSON schema.
type jsonDoc struct {
	Groups []struct {
		Group        string `json:"group"`
		Type         string `json:"type"`
		ProtocolType string `json:"protocolType"`
		State        string `json:"state"`
		Assignor     string `json:"assignor"`
		Leader       *struct {
			Impl     string `json:"impl"`
			Protocol string `json:"protocol"`
			Partial  bool   `json:"partial"`
			Label    string `json:"label"`
		} `json:"leader"`
		GroupEpoch      *int32 `json:"groupEpoch"`
		AssignmentEpoch *int32 `json:"assignmentEpoch"`
		Coordinator     *struct {
			ID   int32  `json:"id"`
			Host string `json:"host"`
			Port int32  `json:"port"`
		} `json:"coordinator"`
		OffsetsPartition *int32       `json:"offsetsPartition"`
		Members          []jsonMember `json:"members"`
		Partitions       []jsonPart   `json:"partitions"`
		TotalLag         int64        `json:"totalLag"`
		Error            *string      `json:"error"`
	} `json:"groups"`
}

type jsonTP struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

type jsonMember struct {
	MemberID         string   `json:"memberId"`
	InstanceID       *string  `json:"instanceId"`
	ClientID         string   `json:"clientId"`
	Host             string   `json:"host"`
	Rack             *string  `json:"rack"`
	SubscribedTopics []string `json:"subscribedTopics"`
	SubscribedRegex  *string  `json:"subscribedRegex"`
	Assignment       []jsonTP `json:"assignment"`
	MemberEpoch      *int32   `json:"memberEpoch"`
	TargetAssignment []jsonTP `json:"targetAssignment"`
}

type jsonPart struct {
	Topic           string  `json:"topic"`
	Partition       int32   `json:"partition"`
	CommittedOffset *int64  `json:"committedOffset"`
	LeaderEpoch     *int32  `json:"leaderEpoch"`
	Metadata        string  `json:"metadata"`
	LogStartOffset  *int64  `json:"logStartOffset"`
	LogEndOffset    *int64  `json:"logEndOffset"`
	Lag             *int64  `json:"lag"`
	MemberID        *string `json:"memberId"`
	ClientID        *string `json:"clientId"`
	Host            *string `json:"host"`
	Error           *string `json:"error"`
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func i64(v int64) *int64   { return &v }
func str(s string) *string { return &s }

func testDescribeJSON(t *testing.T, c *readCluster) {
	ms := c.brokerMembers(t, groupRange, 40)
	ks := c.brokerMembers(t, group848, 24)
	code, stdout, stderr := c.kg(t, "describe", groupRange, group848, "-o", "json", "--members")
	expectRun(t, code, stderr, 0, "")

	// Schema: exactly these keys, present even when null.
	var raw struct {
		Groups []map[string]any `json:"groups"`
	}
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if len(raw.Groups) != 2 {
		t.Fatalf("%d groups, want 2", len(raw.Groups))
	}
	wantGroupKeys := []string{"assignmentEpoch", "assignor", "coordinator", "error", "group", "groupEpoch", "members", "offsetsPartition", "partitions", "protocolType", "state", "totalLag", "type"}
	wantMemberKeys := []string{"assignment", "clientId", "host", "instanceId", "memberEpoch", "memberId", "rack", "subscribedRegex", "subscribedTopics", "targetAssignment"}
	wantPartKeys := []string{"clientId", "committedOffset", "error", "host", "lag", "leaderEpoch", "logEndOffset", "logStartOffset", "memberId", "metadata", "partition", "topic"}
	for i, g := range raw.Groups {
		want := wantGroupKeys
		if i == 0 {
			// A classic group with members names its leader.
			want = slices.Insert(slices.Clone(want), 6, "leader")
		}
		if got := keysOf(g); !slices.Equal(got, want) {
			t.Errorf("group keys %q, want %q", got, want)
		}
		for _, m := range g["members"].([]any) {
			if got := keysOf(m.(map[string]any)); !slices.Equal(got, wantMemberKeys) {
				t.Errorf("member keys %q, want %q", got, wantMemberKeys)
			}
		}
		for _, p := range g["partitions"].([]any) {
			if got := keysOf(p.(map[string]any)); !slices.Equal(got, wantPartKeys) {
				t.Errorf("partition keys %q, want %q", got, wantPartKeys)
			}
		}
	}

	var doc jsonDoc
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("decode: %v", err)
	}
	rg, kg := doc.Groups[0], doc.Groups[1]

	// Classic range group.
	if rg.Group != groupRange || rg.Type != "classic" || rg.ProtocolType != "consumer" || rg.State != "Stable" || rg.Assignor != "range" ||
		rg.GroupEpoch != nil || rg.AssignmentEpoch != nil || rg.Error != nil || rg.TotalLag != 33 {
		t.Errorf("g-range header fields wrong: %+v", rg)
	}
	if l := rg.Leader; l == nil || l.Impl != "java" || l.Protocol != "range" || l.Partial || l.Label != "assignor range (Java/franz-go leader)" || kg.Leader != nil {
		t.Errorf("leaders: g-range %+v, g-848 %+v", rg.Leader, kg.Leader)
	}
	coordID := c.CoordinatorFor(groupRange)
	if rg.Coordinator == nil || rg.Coordinator.ID != coordID || rg.Coordinator.Host+":"+strconv.Itoa(int(rg.Coordinator.Port)) != c.addr[coordID] {
		t.Errorf("g-range coordinator %+v, want %d at %s", rg.Coordinator, coordID, c.addr[coordID])
	}
	if rg.OffsetsPartition == nil || *rg.OffsetsPartition != 49 {
		t.Errorf("g-range offsets partition %v, want 49", rg.OffsetsPartition)
	}
	var wantMembers []jsonMember
	for i, m := range ms {
		wantMembers = append(wantMembers, jsonMember{
			MemberID: m.id, ClientID: m.client, Host: m.host, SubscribedTopics: []string{"orders"},
			Assignment: []jsonTP{{Topic: "orders", Partitions: []int32{int32(3 * i), int32(3*i + 1), int32(3*i + 2)}}},
		})
	}
	if !reflect.DeepEqual(rg.Members, wantMembers) {
		t.Errorf("g-range members\n got %+v\nwant %+v", rg.Members, wantMembers)
	}
	// orders/p is owned by range-a for p < 3, range-b otherwise.
	owner := func(p int32) (*string, *string, *string) {
		m := ms[p/3]
		return str(m.id), str(m.client), str(m.host)
	}
	wantParts := func(owner func(int32) (*string, *string, *string)) []jsonPart {
		committed := []*int64{i64(1), i64(5), i64(12), i64(3), i64(10), nil}
		lag := []*int64{i64(9), i64(6), i64(0), i64(10), i64(4), nil}
		out := []jsonPart{{Topic: "audit", Partition: 1, CommittedOffset: i64(3), LogStartOffset: i64(0), LogEndOffset: i64(7), Lag: i64(4)}}
		for p := range int32(6) {
			jp := jsonPart{Topic: "orders", Partition: p, CommittedOffset: committed[p], LogStartOffset: i64(0), LogEndOffset: i64(int64(10 + p)), Lag: lag[p]}
			jp.MemberID, jp.ClientID, jp.Host = owner(p)
			out = append(out, jp)
		}
		return out
	}
	if want := wantParts(owner); !reflect.DeepEqual(rg.Partitions, want) {
		t.Errorf("g-range partitions\n got %s\nwant %s", dump(rg.Partitions), dump(want))
	}

	// KIP-848 group.
	gi := c.GroupInfo(group848)
	if kg.Group != group848 || kg.Type != "consumer" || kg.ProtocolType != "consumer" || kg.State != "Stable" || kg.Assignor != "range" ||
		kg.GroupEpoch == nil || *kg.GroupEpoch != gi.Epoch || kg.AssignmentEpoch == nil || *kg.AssignmentEpoch != gi.Epoch ||
		kg.Error != nil || kg.TotalLag != 33 {
		t.Errorf("g-848 header fields wrong (broker epoch %d): %s", gi.Epoch, dump(kg))
	}
	if kg.OffsetsPartition == nil || *kg.OffsetsPartition != 42 {
		t.Errorf("g-848 offsets partition %v, want 42", kg.OffsetsPartition)
	}
	if id := c.CoordinatorFor(group848); kg.Coordinator == nil || kg.Coordinator.ID != id {
		t.Errorf("g-848 coordinator %+v, want %d", kg.Coordinator, id)
	}
	wantMembers = nil
	byPart := map[int32]member{}
	for _, m := range ks {
		tps := []jsonTP{{Topic: "orders", Partitions: m.parts}}
		wantMembers = append(wantMembers, jsonMember{
			MemberID: m.id, ClientID: m.client, Host: m.host, SubscribedTopics: []string{"orders"},
			Assignment: tps, MemberEpoch: &gi.Epoch, TargetAssignment: tps,
		})
		for _, p := range m.parts {
			byPart[p] = m
		}
	}
	if !reflect.DeepEqual(kg.Members, wantMembers) {
		t.Errorf("g-848 members\n got %s\nwant %s", dump(kg.Members), dump(wantMembers))
	}
	owner848 := func(p int32) (*string, *string, *string) {
		m := byPart[p]
		return str(m.id), str(m.client), str(m.host)
	}
	if want := wantParts(owner848); !reflect.DeepEqual(kg.Partitions, want) {
		t.Errorf("g-848 partitions\n got %s\nwant %s", dump(kg.Partitions), dump(want))
	}
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// memberIDs asks the broker (through kadm, as any admin tool would) for the
// live groups' member ids and generations.
func memberIDs(t *testing.T, c *readCluster) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	out := map[string]string{}
	classic, err := c.Admin().DescribeGroups(ctx, groupRange, groupRR, groupCoop)
	if err != nil {
		t.Fatalf("describe groups: %v", err)
	}
	for name, g := range classic {
		var ids []string
		for _, m := range g.Members {
			ids = append(ids, m.MemberID)
		}
		sort.Strings(ids)
		out[name] = g.State + " " + strings.Join(ids, ",")
	}
	consumer, err := c.Admin().DescribeConsumerGroups(ctx, group848)
	if err != nil {
		t.Fatalf("describe consumer groups: %v", err)
	}
	for name, g := range consumer {
		var ids []string
		for _, m := range g.Members {
			ids = append(ids, fmt.Sprintf("%s@%d", m.MemberID, m.MemberEpoch))
		}
		sort.Strings(ids)
		out[name] = fmt.Sprintf("%s epoch %d %s", g.State, g.Epoch, strings.Join(ids, ","))
	}
	if len(out) != 4 {
		t.Fatalf("described %d groups, want 4: %v", len(out), out)
	}
	return out
}

func testReadsDoNotDisturb(t *testing.T, c *readCluster) {
	before := memberIDs(t, c)
	generations := map[string]int32{}
	for _, g := range []string{groupRange, groupRR, groupCoop, group848} {
		generations[g] = c.GroupInfo(g).Epoch
	}
	for _, args := range [][]string{
		{"describe", "--all-groups"},
		{"describe", "--all-groups", "--members"},
		{"describe", "--all-groups", "--state"},
		{"describe", groupRange, groupRR, groupCoop, group848, "-o", "json"},
		{"list"},
	} {
		if code, _, stderr := c.kg(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	after := memberIDs(t, c)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("members changed across reads:\nbefore %v\nafter  %v", before, after)
	}
	for g, gen := range generations {
		if got := c.GroupInfo(g).Epoch; got != gen {
			t.Errorf("%s: generation/epoch %d -> %d across reads", g, gen, got)
		}
	}
}

// TestDescribeGroupError: a group whose describe fails is still printed with
// what could be read, its error goes to stderr and the exit code is 1; the
// other groups are unaffected.
func TestDescribeGroupError(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t", 2)
	c.Produce(t, "t", 0, 4, zeroTime)
	c.Produce(t, "t", 1, 5, zeroTime)
	c.Commit(t, "good", map[string]map[int32]int64{"t": {0: 1}})
	c.Commit(t, "bad", map[string]map[int32]int64{"t": {1: 2}})
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeGroups}, Group: "bad", Err: kerr.UnknownServerError, Count: -1})
	rc := &readCluster{Cluster: c, brokers: strings.Join(c.Addrs, ",")}

	code, stdout, stderr := rc.kg(t, "describe", "good", "bad")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	const badPrefix = "kgroups: group \"bad\": "
	// bad's state comes from the group listing (Empty), since its describe
	// failed; its offsets were still read.
	if !strings.HasPrefix(stderr, "Consumer group 'good' has no active members.\nConsumer group 'bad' has no active members.\n"+badPrefix) ||
		!strings.Contains(stderr, "UNKNOWN_SERVER_ERROR") || strings.Count(stderr, "\n") != 3 {
		t.Errorf("stderr %q, want the Empty notes, then bad's error", stderr)
	}
	expectText(t, "stdout", stdout, lines(
		"GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID",
		"good   t              0               1               4    3  -            -     -",
	)+"\n"+lines(
		"GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID",
		"bad    t              1               2               5    3  -            -     -",
	))

	code, stdout, _ = rc.kg(t, "describe", "good", "bad", "-o", "json")
	if code != 1 {
		t.Errorf("json: exit %d, want 1", code)
	}
	var doc jsonDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("json: %v", err)
	}
	if len(doc.Groups) != 2 || doc.Groups[0].Error != nil || doc.Groups[1].Error == nil || !strings.Contains(*doc.Groups[1].Error, "UNKNOWN_SERVER_ERROR") ||
		doc.Groups[0].TotalLag != 3 || doc.Groups[1].TotalLag != 3 {
		t.Errorf("json groups: %s", dump(doc.Groups))
	}
}

func TestDescribeUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const help = "Run 'kgroups describe --help' for usage.\n"
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"describe"}, "kgroups: describe needs one or more group names, or --all-groups\n"},
		{[]string{"describe", "g", "--all-groups"}, "kgroups: give either group names or --all-groups, not both\n"},
		{[]string{"describe", "g", "--members", "--state"}, "kgroups: --members and --state are different views: give at most one\n"},
		{[]string{"describe", "g", "-o", "yaml"}, "kgroups: invalid --output \"yaml\": accepted values are table, json\n"},
		{[]string{"describe", ""}, "kgroups: a group name cannot be empty\n"},
		{[]string{"describe", "g", "--bogus"}, "kgroups: unknown flag: --bogus\n"},
	} {
		// The brokers are unreachable on purpose: validation must come
		// before any connection attempt.
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, tc.args...)...)
		if code != 2 || stdout != "" || stderr != tc.stderr+help {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr+help)
		}
	}
}

func TestReadCommandsUnreachable(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, args := range [][]string{{"describe", "g"}, {"describe", "--all-groups"}, {"list"}} {
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "2s"}, args...)...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, "127.0.0.1:1") || !strings.HasPrefix(stderr, "kgroups: ") {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 1 naming 127.0.0.1:1", args, code, stdout, stderr)
		}
	}
}
