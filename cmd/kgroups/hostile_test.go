package main

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/render/rendertest"
)

// hostileNames are ids a consumer may choose (rendertest.Hostile).
var hostileNames = rendertest.Hostile

// hostileLive is the live group's id: hostile too.
const hostileLive = "live\x1b[31m消费者组\u202e"

// hostile848 is a consumer-protocol group with hostile member client ids.
const hostile848 = "k848\x1b]0;x\x07"

func assertTerminalSafe(t *testing.T, what, s string) {
	t.Helper()
	if why, bad := rendertest.Unsafe(s); bad {
		t.Errorf("%s: %s in %s", what, why, abbreviate(s))
	}
}

func abbreviate(s string) string { return rendertest.Short(s) }

// assertAligned checks that every table in out is aligned in terminal
// cells (rendertest.Tables), and returns the number of rows checked.
func assertAligned(t *testing.T, what, out string) int {
	t.Helper()
	rows, problems := rendertest.Tables(out)
	for _, p := range problems {
		t.Errorf("%s: %s", what, p)
	}
	return rows
}

// hostileCluster has, for every hostile name, an Empty group of that name
// with commits on orders/0 and orders/1; a live classic group (hostileLive)
// whose eight static members use the hostile names as client and instance
// ids (so their member ids, which kfake derives from the instance ids, are
// hostile too), one partition each; and a KIP-848 group with two hostile client
// ids.
type hostileCluster struct {
	*kafkatest.Cluster
	brokers string
	base    time.Time
}

// clientID is h as a client id: kgo refuses client ids longer than 256
// bytes, so the 10,000-character name is cut (it stays whole as an instance
// id and a group id; the output tests cover it as a client id).
func clientID(h string) string {
	if len(h) > 256 {
		return h[:256]
	}
	return h
}

func startHostileCluster(t *testing.T) *hostileCluster {
	t.Helper()
	isolateConfig(t)
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 8)
	// Records an hour old: health reads them exactly against the wall
	// clock, and its TIME-LAG cells (=59m57s) stay within their title's
	// width, which the alignment check assumes; describe pins its clock
	// to base+1h.
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	for p := range int32(8) {
		c.Produce(t, "orders", p, 10, base)
	}
	for _, h := range hostileNames {
		// A consumer that came and went: the group keeps its protocol
		// type, and reads STOP (not a simple group waiting for its
		// rhythm).
		c.JoinAndLeave(t, h, []string{"orders"})
		c.Commit(t, h, map[string]map[int32]int64{"orders": {0: 3, 1: 10}})
	}
	for _, h := range hostileNames {
		c.Join(t, hostileLive, []string{"orders"}, kgo.Balancers(kgo.RoundRobinBalancer()), kgo.ClientID(clientID(h)), kgo.InstanceID(h))
	}
	for _, h := range hostileNames[:2] {
		c.Join(t, hostile848, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID(h))
	}
	c.WaitStable(t, hostileLive, len(hostileNames), 8)
	cl := c.Client(t)
	kafkatest.Eventually(t, "the hostile groups to settle as kgroups sees them", func() bool {
		s, err := cl.PollGroups(context.Background(), hostileLive, hostile848)
		if err != nil {
			return false
		}
		live, ok1 := s.Group(hostileLive)
		k, ok2 := s.Group(hostile848)
		if !ok1 || !ok2 || live.State != kafka.StateStable || k.State != kafka.StateStable || len(live.Members) != len(hostileNames) || len(k.Members) != 2 {
			return false
		}
		for _, m := range live.Members {
			if m.PartitionCount() != 1 {
				return false
			}
		}
		for _, m := range k.Members {
			if m.PartitionCount() != 4 || !reflect.DeepEqual(m.Assignment, m.Target) {
				return false
			}
		}
		return true
	})
	return &hostileCluster{Cluster: c, brokers: strings.Join(c.Addrs, ","), base: base}
}

// kg runs kgroups against the cluster and checks that nothing it printed
// could act on a terminal, and that its tables are aligned.
func (c *hostileCluster) kg(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	code, stdout, stderr = kg(t, append([]string{"-b", c.brokers}, args...)...)
	what := abbreviate(strings.Join(args, " "))
	assertTerminalSafe(t, what+": stdout", stdout)
	assertTerminalSafe(t, what+": stderr", stderr)
	assertAligned(t, what, stdout)
	return code, stdout, stderr
}

func (c *hostileCluster) liveMembers(t *testing.T) []member {
	t.Helper()
	gi := c.GroupInfo(hostileLive)
	var out []member
	for _, gm := range gi.Members {
		m := member{id: gm.MemberID, host: gm.ClientHost, client: gm.ClientID}
		if gm.InstanceID != nil {
			m.instance = *gm.InstanceID
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// cutCell is what a table shows of s in a column capped at limit cells (0:
// whole), with the ellipsis of the test's locale.
func cutCell(s string, limit int) string {
	s = format.Sanitize(s)
	if limit == 0 {
		return s
	}
	return format.Truncate(s, limit, render.LayoutFor(false, format.UTF8Locale(os.Getenv)).Ellipsis)
}

func TestHostileNames(t *testing.T) {
	c := startHostileCluster(t)
	saved := describeClock
	t.Cleanup(func() { describeClock = saved })
	describeClock = func() time.Time { return c.base.Add(time.Hour) }
	members := c.liveMembers(t)

	t.Run("list", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "list")
		expectRun(t, code, stderr, 0, "")
		if rows := assertAligned(t, "list", stdout); rows != len(hostileNames)+2 {
			t.Errorf("%d rows, want %d", rows, len(hostileNames)+2)
		}
		for _, h := range append([]string{hostileLive, hostile848}, hostileNames...) {
			if !strings.Contains(stdout, "\n"+cutCell(h, columns.IDMax)+"  ") {
				t.Errorf("list lacks a row for %q", h)
			}
		}
		// --wide shows every name whole.
		code, stdout, stderr = c.kg(t, "list", "--wide")
		expectRun(t, code, stderr, 0, "")
		for _, h := range append([]string{hostileLive, hostile848}, hostileNames...) {
			if !strings.Contains(stdout, "\n"+format.Sanitize(h)+"  ") {
				t.Errorf("list --wide lacks a row for %q", h)
			}
		}
		code, stdout, _ = c.kg(t, "list", "-o", "json")
		var doc jsonDoc
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 {
			t.Fatalf("exit %d, %v", code, err)
		}
		var names []string
		for _, g := range doc.Groups {
			names = append(names, g.Group)
		}
		want := append([]string{hostileLive, hostile848}, hostileNames...)
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("json names %q, want %q", names, want)
		}
	})

	t.Run("describe the Empty groups", func(t *testing.T) {
		for _, view := range [][]string{nil, {"--members"}, {"--state"}, {"--wide"}, {"--time-lag"}} {
			for _, h := range hostileNames {
				code, stdout, stderr := c.kg(t, append([]string{"describe", h}, view...)...)
				// The Kafka tool's note names the group, made safe.
				expectRun(t, code, stderr, 0, "Consumer group '"+format.Sanitize(h)+"' has no active members.\n")
				if len(view) == 0 && !strings.HasPrefix(stdout, "GROUP") || (len(view) > 0 && view[0] == "--members" && stdout != "") {
					t.Errorf("describe %q %v:\n%s", h, view, abbreviate(stdout))
				}
			}
		}
		code, stdout, stderr := c.kg(t, "describe", hostileNames[3], "--time-lag")
		expectRun(t, code, stderr, 0, "Consumer group '消费者组' has no active members.\n")
		expectText(t, "time lag", stdout, lines(
			"GROUP     TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  TIME-LAG",
			"消费者组  orders          0               3              10    7  -            -     -           =59m57s",
			"消费者组  orders          1              10              10    0  -            -     -                0s",
		))
	})

	t.Run("describe the live group", func(t *testing.T) {
		for _, view := range [][]string{nil, {"--members"}, {"--state"}, {"--wide"}, {"--members", "--wide"}, {"--time-lag"}} {
			code, stdout, stderr := c.kg(t, append([]string{"describe", hostileLive}, view...)...)
			expectRun(t, code, stderr, 0, "")
			want := 8
			if len(view) > 0 && view[0] == "--state" {
				want = 1
			}
			if rows := assertAligned(t, "describe", stdout); rows != want {
				t.Errorf("describe %v: %d rows, want %d:\n%s", view, rows, want, abbreviate(stdout))
			}
			if len(view) > 0 && view[0] == "--members" {
				// Ids are cut at IDMax cells, hosts and client ids at
				// HostMax, unless --wide.
				id, host := columns.IDMax, columns.HostMax
				if slices.Contains(view, "--wide") {
					id, host = 0, 0
				}
				for _, m := range members {
					row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(cutCell(hostileLive, id)) + ` +` +
						regexp.QuoteMeta(cutCell(m.id, id)) + ` +` + regexp.QuoteMeta(cutCell(m.instance, id)) + ` +` +
						regexp.QuoteMeta(cutCell(m.host, host)) + ` +` + regexp.QuoteMeta(cutCell(m.client, host)) + ` +1( |$)`)
					if !row.MatchString(stdout) {
						t.Errorf("--members lacks member %q", m.id)
					}
				}
			}
		}
	})

	t.Run("json keeps the exact bytes", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, append(append([]string{"describe", "-o", "json", hostileLive}, hostileNames...), "--time-lag")...)
		expectRun(t, code, stderr, 0, "")
		var doc jsonDocTimeLag
		dec := json.NewDecoder(strings.NewReader(stdout))
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("decode: %v", err)
		}
		var names []string
		for _, g := range doc.Groups {
			names = append(names, g.Group)
		}
		if want := append([]string{hostileLive}, hostileNames...); !slices.Equal(names, want) {
			t.Fatalf("groups %q, want %q", names, want)
		}
		var got []member
		for _, m := range doc.Groups[0].Members {
			inst := ""
			if m.InstanceID != nil {
				inst = *m.InstanceID
			}
			got = append(got, member{id: m.MemberID, instance: inst, host: m.Host, client: m.ClientID})
		}
		sort.Slice(got, func(i, j int) bool { return got[i].id < got[j].id })
		if !reflect.DeepEqual(got, members) {
			t.Errorf("members\n got %q\nwant %q", got, members)
		}
		for _, p := range doc.Groups[0].Partitions {
			if p.ClientID == nil || !slices.ContainsFunc(hostileNames, func(h string) bool { return clientID(h) == *p.ClientID }) {
				t.Errorf("partition %d: client id %v", p.Partition, p.ClientID)
			}
		}
	})

	t.Run("health", func(t *testing.T) {
		args := append([]string{"health", hostileLive, hostile848, "--window", "600ms", "--interval", "200ms"}, hostileNames...)
		code, stdout, stderr := c.kg(t, args...)
		expectRun(t, code, stderr, 0, "")
		if rows := assertAligned(t, "health", stdout); rows < len(hostileNames)+2 {
			t.Errorf("health: %d rows:\n%s", rows, abbreviate(stdout))
		}
		code, stdout, stderr = c.kg(t, append(args, "-o", "json", "--fail-on", "warn")...)
		var doc healthJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, g := range doc.Groups {
			names = append(names, g.Group)
		}
		if want := append([]string{hostileLive, hostile848}, hostileNames...); !slices.Equal(names, want) {
			t.Errorf("health json groups %q, want %q", names, want)
		}
		// The live groups' members never commit (four polls, a full
		// window of four): NO-COMMITS. The Empty groups lag on orders/0
		// and nothing commits: STOP, their silence (three poll
		// intervals) past the floor of two. (Three polls would make the
		// silence exactly the floor: not past it.) The message that
		// says so names them safely.
		want := "kgroups: 10 groups at or above WARN: " + format.Sanitize(hostileLive) + " (NO-COMMITS), " +
			format.Sanitize(hostile848) + " (NO-COMMITS), " + format.Sanitize(hostileNames[0]) + " (STOP), "
		if code != exitUnhealthy || !strings.HasPrefix(stderr, want) {
			t.Errorf("health --fail-on warn: exit %d %s, want 3 and %s", code, abbreviate(stderr), abbreviate(want))
		}
	})

	t.Run("reset, undo and delete", func(t *testing.T) {
		for _, h := range hostileNames {
			code, stdout, stderr := c.kg(t, "reset", h, "--to-earliest", "--all-topics")
			if code != 0 || !strings.HasPrefix(stdout, "GROUP") || !strings.Contains(stderr, "Dry run") {
				t.Errorf("reset %q: exit %d\n%s\n%s", h, code, abbreviate(stdout), abbreviate(stderr))
			}
			if rows := assertAligned(t, "reset", stdout); rows != 2 {
				t.Errorf("reset %q: %d rows", h, rows)
			}
			code, stdout, stderr = c.kg(t, "reset", h, "--to-latest", "--all-topics", "--execute")
			if code != 0 || !strings.Contains(stdout, "ok") || !strings.Contains(stderr, "Receipt: ") {
				t.Errorf("reset --execute %q: exit %d\n%s\n%s", h, code, abbreviate(stdout), abbreviate(stderr))
			}
			if rows := assertAligned(t, "reset --execute", stdout); rows != 2 {
				t.Errorf("reset --execute %q: %d rows", h, rows)
			}
			code, stdout, _ = c.kg(t, "reset", h, "--to-earliest", "--all-topics", "-o", "json")
			var plan struct {
				Group string `json:"group"`
			}
			if err := json.Unmarshal([]byte(stdout), &plan); err != nil || code != 0 || plan.Group != h {
				t.Errorf("reset -o json: exit %d, %v, group %q, want %q", code, err, plan.Group, h)
			}
			code, stdout, stderr = c.kg(t, "delete", h)
			if code != 0 || assertAligned(t, "delete", stdout) != 1 || !strings.Contains(stderr, "Dry run") {
				t.Errorf("delete %q: exit %d\n%s\n%s", h, code, abbreviate(stdout), abbreviate(stderr))
			}
		}
		// Delete for real, and the notes about a group that is not Empty.
		code, stdout, stderr := c.kg(t, "delete", hostileNames[0], hostileLive, "--execute")
		if code != 1 || !strings.Contains(stdout, "Deleted group ") || !strings.Contains(stderr, "kgroups: ") {
			t.Errorf("delete --execute: exit %d\n%s\n%s", code, abbreviate(stdout), abbreviate(stderr))
		}
	})

	t.Run("simulate", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "simulate", hostileLive, "--join", "1")
		expectRun(t, code, stderr, 0, "")
		if rows := assertAligned(t, "simulate", stdout); rows < 4+4*9 {
			t.Errorf("simulate: %d rows:\n%s", rows, abbreviate(stdout))
		}
		if !strings.HasPrefix(stdout, "Group "+format.Sanitize(hostileLive)+" (classic, Stable, assignor roundrobin (Java/franz-go leader), 8 members): join 1\n") {
			t.Errorf("simulate header: %s", abbreviate(stdout))
		}
		leave := members[0].id
		code, stdout, stderr = c.kg(t, "simulate", hostileLive, "--leave", leave, "-o", "json")
		expectRun(t, code, stderr, 0, "")
		var doc simJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Group != hostileLive || doc.Change != "leave "+leave || len(doc.Assignors) != 4 || doc.Assignors[0].Assignment[members[1].id] == nil {
			t.Errorf("simulate json: group %q change %q", doc.Group, doc.Change)
		}
		code, stdout, stderr = c.kg(t, "simulate", hostile848, "--join", "1")
		expectRun(t, code, stderr, 0, "")
		// The members' current and target (two members), then the
		// predictions of the broker's assignors: the summary (range and
		// uniform), then each result's three members at least.
		targets, predicted, ok := strings.Cut(stdout, "\nPredicted by")
		if rows := assertAligned(t, "simulate 848", targets); !ok || rows != 2 {
			t.Errorf("simulate KIP-848: %d rows before the predictions:\n%s", rows, abbreviate(stdout))
		}
		if rows := assertAligned(t, "simulate 848 predictions", predicted); rows < 2+2*3 {
			t.Errorf("simulate KIP-848: %d rows of predictions:\n%s", rows, abbreviate(stdout))
		}
		// A hostile client id names its member; an unknown name is
		// reported with the group's members, safely.
		code, _, stderr = c.kg(t, "simulate", hostile848, "--leave", hostileNames[0])
		expectRun(t, code, stderr, 0, "")
		code, _, stderr = c.kg(t, "simulate", hostile848, "--leave", hostileNames[0]+"-gone")
		if code != 1 || !strings.HasPrefix(stderr, "kgroups: member ") {
			t.Errorf("simulate --leave unknown: exit %d %s", code, abbreviate(stderr))
		}
	})

	// Last: removing a member changes the live group's member ids.
	t.Run("rebalance", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "rebalance", hostileLive, "--all")
		expectRun(t, code, stderr, 0, "")
		if rows := assertAligned(t, "rebalance plan", stdout); rows != len(hostileNames) {
			t.Errorf("plan: %d rows:\n%s", rows, abbreviate(stdout))
		}
		if !strings.HasPrefix(stdout, "Group "+format.Sanitize(hostileLive)+" (classic, Stable, assignor roundrobin, 8 members): remove 8 members\n") {
			t.Errorf("plan header: %s", abbreviate(stdout))
		}
		code, stdout, stderr = c.kg(t, "rebalance", hostile848, "--all")
		expectRun(t, code, stderr, 0, "")
		if rows := assertAligned(t, "rebalance plan 848", stdout); rows != 2 {
			t.Errorf("KIP-848 plan: %d rows:\n%s", rows, abbreviate(stdout))
		}
		// The static member named by the 10,000-character instance id
		// is removed and rejoins under a new member id.
		code, stdout, stderr = c.kg(t, "rebalance", hostileLive, "--instance", hostileNames[2], "--execute")
		expectRun(t, code, stderr, 0, "")
		for _, want := range []string{"\nReceipt: ", "  removed\n", "\nLeft (1):\n", "\nNew members (1):\n"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("rebalance --execute lacks %q:\n%s", want, abbreviate(stdout))
			}
		}
		// Plan (1), results (1), left (1), joined (1), moves (any).
		if rows := assertAligned(t, "rebalance --execute", stdout); rows < 4 {
			t.Errorf("rebalance --execute: %d rows:\n%s", rows, abbreviate(stdout))
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, h := range hostileNames {
			code, stdout, stderr := c.kg(t, "describe", "missing-"+h)
			if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "kgroups: group ") {
				t.Errorf("missing %q: exit %d %s", h, code, abbreviate(stderr))
			}
			code, _, stderr = c.kg(t, "simulate", "missing-"+h, "--join", "1")
			if code != 1 || !strings.HasSuffix(stderr, " not found\n") {
				t.Errorf("simulate missing %q: exit %d %s", h, code, abbreviate(stderr))
			}
			code, _, stderr = c.kg(t, "reset", h, "--to-offset", "x", "--all-topics")
			if code != 2 {
				t.Errorf("usage error for %q: exit %d %s", h, code, abbreviate(stderr))
			}
		}
	})
}

// jsonDocTimeLag is jsonDoc with partitions' time lags.
type jsonDocTimeLag struct {
	Groups []struct {
		Group      string       `json:"group"`
		Members    []jsonMember `json:"members"`
		Partitions []struct {
			jsonPart
			TimeLagSeconds *float64 `json:"timeLagSeconds"`
		} `json:"partitions"`
	} `json:"groups"`
}
