package demo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// waitLong bounds every wait. It only stops a broken test, so it is
// generous: the demo's workload runs in real time, and on a busy machine
// under the race detector it runs slowly.
const waitLong = 2 * time.Minute

// waitFor polls check until it returns nil, and fails with the last reason
// check gave if waitLong passes first.
func waitFor(t *testing.T, what string, check func() error) {
	t.Helper()
	end := time.Now().Add(waitLong)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not reached within %v: %v", what, waitLong, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func newAdmin(t *testing.T, addrs []string) (*kgo.Client, *kadm.Client) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatalf("admin client: %v", err)
	}
	return cl, kadm.NewClient(cl)
}

// reqCtx bounds one request or one Start: generously, since it only
// stops a broken test (a request inside waitFor is tried again anyway).
func reqCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

// classicWant is what DescribeGroups must report for a classic group with
// live members.
type classicWant struct {
	protocol string
	members  int
}

var classicGroups = map[string]classicWant{
	"orders-range":       {"range", 2},
	"orders-roundrobin":  {"roundrobin", 3},
	"clicks-sticky":      {"sticky", 2},
	"clicks-cooperative": {"cooperative-sticky", 3},
	"inventory-static":   {"cooperative-sticky", 2},
	"analytics-slow":     {"range", 1},
	"audit-nocommit":     {"cooperative-sticky", 1},
}

var wantTypes = map[string]string{
	"orders-range":       "classic",
	"orders-roundrobin":  "classic",
	"clicks-sticky":      "classic",
	"clicks-cooperative": "classic",
	"payments-848":       "consumer",
	"inventory-static":   "classic",
	"analytics-slow":     "classic",
	"audit-nocommit":     "classic",
	"billing-archive":    "classic",
	"search-churn":       "classic",
	"jobs-share":         "share",
}

func TestDemoWorkload(t *testing.T) {
	before := runtime.NumGoroutine()

	ctx, cancel := reqCtx()
	defer cancel()
	c, err := Start(ctx, Options{ChurnInterval: 3 * time.Second})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	closed := false
	defer func() {
		if !closed {
			c.Close()
		}
	}()
	addrs := c.Addrs()
	if len(addrs) != 3 {
		t.Fatalf("Addrs() = %v, want 3 brokers", addrs)
	}
	for _, a := range addrs {
		if !strings.HasPrefix(a, "127.0.0.1:") {
			t.Fatalf("broker address %q is not on 127.0.0.1", a)
		}
	}
	acl, adm := newAdmin(t, addrs)
	defer acl.Close()

	waitFor(t, "every group listed with its type", func() error {
		ctx, cancel := reqCtx()
		defer cancel()
		listed, err := adm.ListGroups(ctx)
		if err != nil {
			return err
		}
		got := make(map[string]string)
		for name, g := range listed {
			got[name] = g.GroupType
		}
		if !maps.Equal(got, wantTypes) {
			return fmt.Errorf("groups and types = %v, want %v", got, wantTypes)
		}
		if s := listed[billingArchive].State; s != "Empty" {
			return fmt.Errorf("billing-archive listed as %q, want Empty", s)
		}
		return nil
	})

	// The share group: two members, and start offsets that advance as
	// they acknowledge what the producer writes.
	var firstStarts int64 = -1
	waitFor(t, "jobs-share with two members acknowledging", func() error {
		ctx, cancel := reqCtx()
		defer cancel()
		described, err := adm.DescribeShareGroups(ctx, shareGroup)
		if err != nil {
			return err
		}
		g := described[shareGroup]
		if g.Err != nil || g.GroupState != "Stable" || len(g.Members) != shareMembers {
			return fmt.Errorf("jobs-share %s with %d members (%w), want Stable with %d", g.GroupState, len(g.Members), g.Err, shareMembers)
		}
		offs, err := adm.DescribeShareGroupOffsets(ctx, shareGroup)
		if err != nil {
			return err
		}
		var sum int64
		for p := range jobsTopic.partitions {
			so, ok := offs[shareGroup].Offsets.Lookup(jobsTopic.name, p)
			if !ok || so.StartOffset < seedPerPartition {
				return fmt.Errorf("jobs/%d start offset %+v, want past the %d seeded records", p, so, seedPerPartition)
			}
			sum += so.StartOffset
		}
		if firstStarts < 0 {
			firstStarts = sum
		}
		if sum <= firstStarts {
			return fmt.Errorf("start offsets sum %d, not yet past %d", sum, firstStarts)
		}
		return nil
	})

	waitFor(t, "classic groups stable with their assignors", func() error {
		ctx, cancel := reqCtx()
		defer cancel()
		described, err := adm.DescribeGroups(ctx, slices.Collect(maps.Keys(classicGroups))...)
		if err != nil {
			return err
		}
		for name, want := range classicGroups {
			g := described[name]
			if g.Err != nil {
				return fmt.Errorf("%s: %w", name, g.Err)
			}
			if g.State != "Stable" || g.Protocol != want.protocol || len(g.Members) != want.members {
				return fmt.Errorf("%s: state %s, protocol %q, %d members; want Stable, %q, %d",
					name, g.State, g.Protocol, len(g.Members), want.protocol, want.members)
			}
		}
		var ids []string
		for _, m := range described["inventory-static"].Members {
			if m.InstanceID == nil {
				return fmt.Errorf("inventory-static member %s has no instance id", m.MemberID)
			}
			ids = append(ids, *m.InstanceID)
		}
		slices.Sort(ids)
		if want := []string{"inventory-static-1", "inventory-static-2"}; !slices.Equal(ids, want) {
			return fmt.Errorf("inventory-static instance ids = %v, want %v", ids, want)
		}
		return nil
	})

	waitFor(t, "payments-848 stable on the consumer protocol", func() error {
		ctx, cancel := reqCtx()
		defer cancel()
		described, err := adm.DescribeConsumerGroups(ctx, "payments-848")
		if err != nil {
			return err
		}
		g := described["payments-848"]
		if g.Err != nil {
			return g.Err
		}
		if g.State != "Stable" || g.AssignorName != "uniform" || len(g.Members) != 2 {
			return fmt.Errorf("state %s, assignor %q, %d members; want Stable, uniform, 2", g.State, g.AssignorName, len(g.Members))
		}
		assigned := 0
		for _, m := range g.Members {
			for _, ps := range m.Assignment {
				assigned += len(ps)
			}
		}
		if assigned != 3 {
			return fmt.Errorf("%d partitions assigned, want all 3 of payments", assigned)
		}
		return nil
	})

	t.Run("billing-archive", func(t *testing.T) {
		ctx, cancel := reqCtx()
		defer cancel()
		described, err := adm.DescribeGroups(ctx, billingArchive)
		if err != nil {
			t.Fatal(err)
		}
		if g := described[billingArchive]; g.State != "Empty" || len(g.Members) != 0 || g.ProtocolType != "consumer" {
			t.Fatalf("billing-archive: state %s with %d members, protocol type %q; want Empty with 0, an archived consumer's (consumer)", g.State, len(g.Members), g.ProtocolType)
		}
		got := committed(t, adm, billingArchive)
		want := map[string]map[int32]int64{"payments": {0: 10, 1: 4}}
		if !equalOffsets(got, want) {
			t.Fatalf("billing-archive commits = %v, want %v", got, want)
		}
	})

	t.Run("analytics-slow falls behind", func(t *testing.T) {
		var first int64
		waitFor(t, "analytics-slow commits", func() error {
			total := 0
			for _, ps := range committed(t, adm, "analytics-slow") {
				for _, o := range ps {
					total += int(o)
				}
			}
			if total == 0 {
				return errors.New("nothing committed yet")
			}
			first = backlog(t, adm, "analytics-slow", "clicks")
			return nil
		})
		// clicks gets 8 records a second and analytics-slow takes 2:
		// a consumer that kept up would never get this far behind.
		var last int64
		waitFor(t, "analytics-slow lag growth", func() error {
			last = backlog(t, adm, "analytics-slow", "clicks")
			if last < first+20 {
				return fmt.Errorf("lag went from %d to %d", first, last)
			}
			return nil
		})
		t.Logf("analytics-slow lag grew from %d to %d", first, last)
	})

	t.Run("search-churn member comes and goes", func(t *testing.T) {
		seen := make(map[string]bool)
		sizes := make(map[int]bool)
		waitFor(t, "search-churn-3 joining twice", func() error {
			ctx, cancel := reqCtx()
			defer cancel()
			described, err := adm.DescribeGroups(ctx, churnGroup.name)
			if err != nil {
				return err
			}
			g := described[churnGroup.name]
			sizes[len(g.Members)] = true
			for _, m := range g.Members {
				if m.ClientID == "search-churn-3" {
					seen[m.MemberID] = true
				}
			}
			if len(seen) < 2 || !sizes[2] || !sizes[3] {
				return fmt.Errorf("member ids of search-churn-3 seen: %d; group sizes seen: %v", len(seen), sizes)
			}
			return nil
		})
	})

	t.Run("audit-nocommit never commits", func(t *testing.T) {
		ctx, cancel := reqCtx()
		defer cancel()
		described, err := adm.DescribeGroups(ctx, "audit-nocommit")
		if err != nil {
			t.Fatal(err)
		}
		g := described["audit-nocommit"]
		if len(g.Members) != 1 {
			t.Fatalf("audit-nocommit has %d members, want 1", len(g.Members))
		}
		if a, ok := g.Members[0].Assigned.AsConsumer(); !ok || len(a.Topics) != 1 || len(a.Topics[0].Partitions) != 2 {
			t.Fatalf("audit-nocommit member assignment = %+v, want both audit partitions", a)
		}
		if got := committed(t, adm, "audit-nocommit"); len(got) != 0 {
			t.Fatalf("audit-nocommit committed %v, want nothing", got)
		}
	})

	acl.Close()
	c.Close()
	closed = true

	for _, a := range addrs {
		ln, err := net.Listen("tcp", a)
		if err != nil {
			t.Fatalf("port of %s still taken after Close: %v", a, err)
		}
		_ = ln.Close()
	}
	waitFor(t, "goroutines back to the count before Start", func() error {
		if n := runtime.NumGoroutine(); n > before {
			return fmt.Errorf("%d goroutines, %d before Start", n, before)
		}
		return nil
	})
}

// committed returns the group's committed offsets as topic -> partition ->
// offset.
func committed(t *testing.T, adm *kadm.Client, group string) map[string]map[int32]int64 {
	t.Helper()
	ctx, cancel := reqCtx()
	defer cancel()
	resps, err := adm.FetchOffsets(ctx, group)
	if err == nil {
		err = resps.Error()
	}
	if err != nil {
		t.Fatalf("fetch offsets of %s: %v", group, err)
	}
	out := make(map[string]map[int32]int64)
	for tp, ps := range resps {
		for p, r := range ps {
			if out[tp] == nil {
				out[tp] = make(map[int32]int64)
			}
			out[tp][p] = r.At
		}
	}
	return out
}

func equalOffsets(a, b map[string]map[int32]int64) bool {
	return maps.EqualFunc(a, b, maps.Equal[map[int32]int64])
}

// backlog is how many records of topic the group has not consumed: log end
// minus committed, counting an uncommitted partition from its start (0 here,
// nothing is deleted), where the group's members begin.
func backlog(t *testing.T, adm *kadm.Client, group, topic string) int64 {
	t.Helper()
	ctx, cancel := reqCtx()
	defer cancel()
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		t.Fatalf("list end offsets of %s: %v", topic, err)
	}
	commits := committed(t, adm, group)[topic]
	var total int64
	ends.Each(func(o kadm.ListedOffset) {
		total += o.Offset - commits[o.Partition]
	})
	return total
}

// freePorts finds a first port whose next two ports are free as well.
func freePorts(t *testing.T) int {
	t.Helper()
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := ln.Addr().(*net.TCPAddr).Port
		_ = ln.Close()
		if p > maxFirstPort {
			continue
		}
		ok := true
		for _, q := range []int{p, p + 1, p + 2} {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(q))
			if err != nil {
				ok = false
				break
			}
			_ = l.Close()
		}
		if ok {
			return p
		}
	}
	t.Fatal("no three consecutive free ports found")
	return 0
}

func TestStartListen(t *testing.T) {
	p := freePorts(t)
	ctx, cancel := reqCtx()
	defer cancel()
	c, err := Start(ctx, Options{Listen: "localhost:" + strconv.Itoa(p)})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer c.Close()
	want := []string{
		"127.0.0.1:" + strconv.Itoa(p),
		"127.0.0.1:" + strconv.Itoa(p+1),
		"127.0.0.1:" + strconv.Itoa(p+2),
	}
	if got := c.Addrs(); !slices.Equal(got, want) {
		t.Fatalf("Addrs() = %v, want %v", got, want)
	}

	// The same ports cannot be taken twice; the error says which.
	_, err = Start(ctx, Options{Listen: want[0]})
	if err == nil || !strings.Contains(err.Error(), want[0]) {
		t.Fatalf("second Start on %s: err = %v, want an error naming the address", want[0], err)
	}
}

func TestStartRejectsBadOptions(t *testing.T) {
	ctx, cancel := reqCtx()
	defer cancel()
	if _, err := Start(ctx, Options{Listen: "0.0.0.0:9092"}); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Fatalf("Start on 0.0.0.0: err = %v, want a loopback error", err)
	}
	if _, err := Start(ctx, Options{ChurnInterval: -time.Second}); err == nil || !strings.Contains(err.Error(), "must not be negative") {
		t.Fatalf("Start with a negative churn interval: err = %v", err)
	}
}

func TestParseListen(t *testing.T) {
	for _, tc := range []struct {
		in       string
		host     string
		port     int
		errParts []string
	}{
		{in: "127.0.0.1:9092", host: "127.0.0.1", port: 9092},
		{in: "localhost:1", host: "127.0.0.1", port: 1},
		{in: "LOCALHOST:65533", host: "127.0.0.1", port: 65533},
		{in: "127.0.0.2:19092", host: "127.0.0.2", port: 19092},
		{in: "[::1]:9092", host: "::1", port: 9092},
		{in: "9092", errParts: []string{`"9092"`, "want HOST:PORT"}},
		{in: "", errParts: []string{"want HOST:PORT"}},
		{in: ":9092", errParts: []string{"host is missing", "127.0.0.1"}},
		{in: "0.0.0.0:9092", errParts: []string{`host "0.0.0.0" is not a loopback address`}},
		{in: "10.1.2.3:9092", errParts: []string{`host "10.1.2.3" is not a loopback address`}},
		{in: "example.com:9092", errParts: []string{`host "example.com" is not a loopback address`}},
		{in: "127.0.0.1:http", errParts: []string{`port "http" must be a number from 1 to 65533`}},
		{in: "127.0.0.1:0", errParts: []string{`port "0"`, "PORT+2"}},
		{in: "127.0.0.1:65534", errParts: []string{`port "65534"`}},
		{in: "127.0.0.1:-1", errParts: []string{`port "-1"`}},
	} {
		host, port, err := ParseListen(tc.in)
		if tc.errParts == nil {
			if err != nil || host != tc.host || port != tc.port {
				t.Errorf("ParseListen(%q) = %q, %d, %v; want %q, %d", tc.in, host, port, err, tc.host, tc.port)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseListen(%q) = %q, %d; want an error", tc.in, host, port)
			continue
		}
		for _, part := range tc.errParts {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("ParseListen(%q) error %q does not contain %q", tc.in, err, part)
			}
		}
	}
}

// TestCloseDuringStartup closes the demo while its groups are still forming,
// which is when a static member closing mid-rebalance could hold up the
// others, and checks that everything is released all the same.
func TestCloseDuringStartup(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, d := range []time.Duration{0, 300 * time.Millisecond, 800 * time.Millisecond} {
		ctx, cancel := reqCtx()
		c, err := Start(ctx, Options{})
		cancel()
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		time.Sleep(d)
		addrs := c.Addrs()
		c.Close()
		c.Close() // a second Close is a no-op
		for _, a := range addrs {
			ln, err := net.Listen("tcp", a)
			if err != nil {
				t.Fatalf("closed %v after Start: port of %s still taken: %v", d, a, err)
			}
			_ = ln.Close()
		}
	}
	waitFor(t, "goroutines back to the count before Start", func() error {
		if n := runtime.NumGoroutine(); n > before {
			return fmt.Errorf("%d goroutines, %d before Start", n, before)
		}
		return nil
	})
}

func TestInterleave(t *testing.T) {
	recs := func(topic string, p int32, offsets ...int64) []*kgo.Record {
		var rs []*kgo.Record
		for _, o := range offsets {
			rs = append(rs, &kgo.Record{Topic: topic, Partition: p, Offset: o})
		}
		return rs
	}
	fs := kgo.Fetches{
		{Topics: []kgo.FetchTopic{{Topic: "clicks", Partitions: []kgo.FetchPartition{
			{Partition: 0, Records: recs("clicks", 0, 10, 11, 12)},
			{Partition: 3},
			{Partition: 1, Records: recs("clicks", 1, 5)},
		}}}},
		{Topics: []kgo.FetchTopic{{Topic: "clicks", Partitions: []kgo.FetchPartition{
			{Partition: 2, Records: recs("clicks", 2, 7, 8)},
		}}}},
	}
	var got []string
	for _, r := range interleave(fs) {
		got = append(got, fmt.Sprintf("%d@%d", r.Partition, r.Offset))
	}
	want := []string{"0@10", "1@5", "2@7", "0@11", "2@8", "0@12"}
	if !slices.Equal(got, want) {
		t.Fatalf("interleave = %v, want %v", got, want)
	}
	if got := interleave(nil); len(got) != 0 {
		t.Fatalf("interleave(nil) = %v, want nothing", got)
	}
}
