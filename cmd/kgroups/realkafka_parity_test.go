//go:build realkafka

package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// committedTo waits until group has committed ends (partition: offset) on
// topic, as a consumer that reads to the end does on its autocommit timer.
func committedTo(t *testing.T, c *realkafka.Cluster, group, topic string, ends map[int32]int64) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		got, err := c.Admin().FetchOffsets(ctx, group)
		cancel()
		done := err == nil
		for p, end := range ends {
			if o, ok := got.Lookup(topic, p); !done || !ok || o.Err != nil || o.At != end {
				done = false
			}
		}
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never committed %v on %s within 2m (last read %v, %v)", group, ends, topic, got, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Java's assignor classes, as partition.assignment.strategy takes them.
const (
	javaRange      = "org.apache.kafka.clients.consumer.RangeAssignor"
	javaRoundRobin = "org.apache.kafka.clients.consumer.RoundRobinAssignor"
	javaSticky     = "org.apache.kafka.clients.consumer.StickyAssignor"
	javaCoopSticky = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
)

// classicProps are a classic Java member's properties: quick commits and
// heartbeats, so a test settles in seconds.
func classicProps(group, assignor string, extra ...string) []string {
	return append([]string{"group.id=" + group, "partition.assignment.strategy=" + assignor,
		"auto.commit.interval.ms=100", "session.timeout.ms=10000", "heartbeat.interval.ms=500",
		"auto.offset.reset=earliest"}, extra...)
}

// kip848Props are a KIP-848 Java member's (group.protocol=consumer).
func kip848Props(group, assignor string, extra ...string) []string {
	return append([]string{"group.id=" + group, "group.protocol=consumer", "group.remote.assignor=" + assignor,
		"auto.commit.interval.ms=100", "auto.offset.reset=earliest"}, extra...)
}

// parityCluster is a real Kafka cluster holding one group of each kind
// kgroups describes, all settled, and the names of its groups.
type parityCluster struct {
	*realkafka.Cluster
	groups []string
	want   map[string]realkafka.Want
	types  map[string]string
	// clients runs the groups' Java members.
	clients *realkafka.Clients
}

// startParity builds the cluster: topics orders (3 partitions) and
// payments (2), and these groups, all subscribed to both (Java members,
// autocommit every 100 ms; the members' client ids are Java's default
// consumer-<group>-<n> unless said):
//
//	c-range, c-roundrobin, c-sticky, c-coop   classic, two members, one assignor each
//	c-static     classic range, static members static-a, static-b, client id billing
//	k-uniform    KIP-848, server assignor uniform, two members
//	k-range      KIP-848, server assignor range, two members, one static (k-static-a)
//	e-classic    Empty classic group that read orders and left (lag 4 on orders/0)
//	e-kip848     Empty KIP-848 group that read orders and left (lag 4 on orders/0)
//	e-admin      Empty group with admin commits only: orders/0 -> 3, orders/2 -> 1
func startParity(t *testing.T, version string) *parityCluster {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := &parityCluster{Cluster: realkafka.Start(t, version, 1), want: map[string]realkafka.Want{}}
	orders, payments := c.Name("orders"), c.Name("payments")
	topics := []string{orders, payments}
	c.CreateTopic(t, orders, 3)
	c.CreateTopic(t, payments, 2)
	c.Produce(t, orders, 0, 10, zeroTime)
	c.Produce(t, orders, 1, 20, zeroTime)
	c.Produce(t, orders, 2, 5, zeroTime)
	c.Produce(t, payments, 0, 8, zeroTime)

	j := c.StartClients(t)
	c.clients = j
	kip848 := c.Version >= "4"
	// The Empty groups first: they read orders to its end, commit and leave.
	eClassic, eKIP848, eAdmin := c.Name("e-classic"), c.Name("e-kip848"), c.Name("e-admin")
	j.Consumer(t, "e-classic-1", []string{orders}, classicProps(eClassic, javaRange)...)
	settle := map[string]realkafka.Want{eClassic: {Members: 1, Topics: []string{orders}}}
	if kip848 {
		j.Consumer(t, "e-kip848-1", []string{orders}, kip848Props(eKIP848, "uniform")...)
		settle[eKIP848] = realkafka.Want{Members: 1, Topics: []string{orders}}
	}
	c.Settled(t, settle)
	// Settled is the assignment; the reads and their commits come after
	// it, and a loaded machine can be slow to make them. Closed before
	// then, a group would commit less than the end, or nothing.
	for g := range settle {
		committedTo(t, c.Cluster, g, orders, map[int32]int64{0: 10, 1: 20, 2: 5})
	}
	j.Close(t, "e-classic-1")
	c.want[eClassic] = realkafka.Want{}
	if kip848 {
		j.Close(t, "e-kip848-1")
		c.want[eKIP848] = realkafka.Want{}
	}
	c.Commit(t, eAdmin, map[string]map[int32]int64{orders: {0: 3, 2: 1}})
	c.want[eAdmin] = realkafka.Want{}
	// Now orders/0 moves on: the Empty groups lag there.
	c.Produce(t, orders, 0, 4, zeroTime)
	c.Produce(t, payments, 0, 3, zeroTime)

	member := func(group string, n int, props func(i int) []string) {
		for i := 1; i <= n; i++ {
			j.Consumer(t, group+"-"+string(rune('0'+i)), topics, props(i)...)
		}
		c.want[group] = realkafka.Want{Members: n, Topics: topics}
	}
	for _, a := range []struct{ name, class string }{
		{"c-range", javaRange}, {"c-roundrobin", javaRoundRobin},
		{"c-sticky", javaSticky}, {"c-coop", javaCoopSticky},
	} {
		g := c.Name(a.name)
		member(g, 2, func(int) []string { return classicProps(g, a.class) })
	}
	cStatic := c.Name("c-static")
	member(cStatic, 2, func(i int) []string {
		return classicProps(cStatic, javaRange, "group.instance.id=static-"+string(rune('a'+i-1)), "client.id=billing")
	})
	if kip848 {
		kUniform, kRange := c.Name("k-uniform"), c.Name("k-range")
		member(kUniform, 2, func(int) []string { return kip848Props(kUniform, "uniform") })
		member(kRange, 2, func(i int) []string {
			if i == 1 {
				return kip848Props(kRange, "range", "group.instance.id=k-static-a")
			}
			return kip848Props(kRange, "range")
		})
	}
	c.types = c.Settled(t, c.want)
	for g := range c.want {
		c.groups = append(c.groups, g)
	}
	slices.Sort(c.groups)
	return c
}

// how tells compare what may differ: the order of rows (sort them by
// these columns first) and how cells compare.
type how struct {
	sortBy     []string
	mayBeEmpty bool // an Empty group has no --members rows
	equal      func(col, got, want string) bool
	// own runs the brokers' own release of kafka-consumer-groups.sh
	// instead of DefaultVersion's.
	own bool
	// kafka rewrites the Kafka tool's rows into kgroups' columns and
	// wording where an older tool names or writes a field otherwise.
	kafka func([]realkafka.Row) []realkafka.Row
}

// exact compares cells byte for byte, but for one documented difference:
// kafka-consumer-groups.sh leaves GROUP-INSTANCE-ID blank for a dynamic
// member of a group that has a static one, where kgroups prints "-", as
// for every missing value, so that a table always splits at spaces.
func exact(col, got, want string) bool {
	if col == "GROUP-INSTANCE-ID" && want == "" {
		return got == "-"
	}
	return got == want
}

// sameType compares TYPE case-insensitively (kafka-consumer-groups.sh
// prints GroupType's display names, Classic and Consumer; kgroups the
// protocol's, classic and consumer, as --type takes them), the rest
// exactly.
func sameType(col, got, want string) bool {
	if col == "TYPE" {
		return strings.EqualFold(got, want)
	}
	return exact(col, got, want)
}

// compare runs kafka-consumer-groups.sh with kafkaArgs, kgroups with
// kgArgs, and kafka-consumer-groups.sh again, until the two Kafka runs
// agree (the groups were at rest while kgroups read them), then holds
// kgroups' rows to Kafka's for the groups of the cluster: the same rows,
// and under each of Kafka's columns the same cell (kgroups may add columns
// of its own).
func (c *parityCluster) compare(t *testing.T, what string, kgArgs, kafkaArgs []string, h how) (kg, kafka []realkafka.Row) {
	t.Helper()
	if h.equal == nil {
		h.equal = exact
	}
	tool := c.Groups
	if h.own {
		tool = c.ReleaseGroups
	}
	for range 5 {
		before := tool(t, kafkaArgs...)
		// --wide: kgroups cuts ids longer than 64 cells (and hosts and
		// client ids at 40) to fit a terminal unless --wide, where the
		// Kafka tool prints them whole; a Java member id is the client id
		// and a UUID, 54 cells for consumer-c-coop-9 already.
		code, out, errOut := kgRun(t, append(append([]string{"-b", c.Bootstrap}, kgArgs...), "--wide")...)
		after := tool(t, kafkaArgs...)
		if before != after {
			t.Logf("%s: the groups moved while kgroups read them; again", what)
			continue
		}
		if code != 0 {
			t.Fatalf("%s: kgroups %v exited %d:\n%s%s", what, kgArgs, code, out, errOut)
		}
		want, err := realkafka.KafkaRows(after)
		if err != nil {
			t.Fatalf("%s: Kafka: %v\n%s", what, err, after)
		}
		got, err := realkafka.Rows(out)
		if err != nil {
			t.Fatalf("%s: kgroups: %v\n%s", what, err, out)
		}
		want, got = realkafka.FilterRows(want, c.groups), realkafka.FilterRows(got, c.groups)
		if h.kafka != nil {
			want = h.kafka(want)
		}
		if h.sortBy != nil {
			want, got = realkafka.SortRows(want, h.sortBy...), realkafka.SortRows(got, h.sortBy...)
		}
		if len(want) == 0 && !h.mayBeEmpty {
			t.Fatalf("%s: no rows from Kafka:\n%s", what, after)
		}
		if d := realkafka.Same(got, want, h.equal); d != "" {
			t.Errorf("%s: kgroups %s differs from kafka-consumer-groups.sh %s:\n%s",
				what, strings.Join(kgArgs, " "), strings.Join(kafkaArgs, " "), d)
		}
		return got, want
	}
	t.Fatalf("%s: the groups never held still", what)
	return nil, nil
}

// kgRun is kg with a longer deadline: real brokers answer the first
// coordinator lookups slower than kfake.
func kgRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return kg(t, args...)
}

// TestRealParity holds kgroups' describe and list to kafka-consumer-groups.sh
// on a real Kafka 4.2 cluster with every kind of consumer group, settled so
// that both read the same numbers.
func TestRealParity(t *testing.T) {
	c := startParity(t, "")
	all := []string{"--describe", "--all-groups"}
	// The broker keeps a group's members in a hash map: Kafka's --members
	// lists them in its order. kgroups sorts them; compare as sets.
	byMember := how{sortBy: []string{"GROUP", "CONSUMER-ID"}}
	byGroup := how{sortBy: []string{"GROUP"}, equal: sameType}
	t.Run("describe", func(t *testing.T) {
		_, want := c.compare(t, "describe", []string{"describe", "--all-groups"}, all, how{})
		if len(want) < 25 {
			t.Errorf("describe: only %d rows from Kafka", len(want))
		}
	})
	t.Run("members", func(t *testing.T) {
		c.compare(t, "members", []string{"describe", "--all-groups", "--members"}, append(all, "--members"), byMember)
	})
	t.Run("members-verbose", func(t *testing.T) {
		c.compare(t, "members verbose", []string{"describe", "--all-groups", "--members", "--verbose"},
			append(all, "--members", "--verbose"), byMember)
	})
	t.Run("state", func(t *testing.T) {
		c.compare(t, "state", []string{"describe", "--all-groups", "--state"}, append(all, "--state"), how{})
	})
	t.Run("state-verbose", func(t *testing.T) {
		c.compare(t, "state verbose", []string{"describe", "--all-groups", "--state", "--verbose"},
			append(all, "--state", "--verbose"), how{})
	})
	// One group at a time, verbose, for one group of each kind (a JVM run
	// costs a second or two).
	t.Run("one-group", func(t *testing.T) {
		for _, name := range []string{"c-static", "k-range", "e-kip848", "e-admin"} {
			g := c.Name(name)
			if !slices.Contains(c.groups, g) {
				continue
			}
			c.compare(t, "describe "+g, []string{"describe", g, "--verbose"}, []string{"--describe", "--group", g, "--verbose"}, how{})
			c.compare(t, "members "+g, []string{"describe", g, "--members", "--verbose"},
				[]string{"--describe", "--group", g, "--members", "--verbose"}, how{sortBy: byMember.sortBy, mayBeEmpty: true})
			c.compare(t, "state "+g, []string{"describe", g, "--state", "--verbose"},
				[]string{"--describe", "--group", g, "--state", "--verbose"}, how{})
		}
	})
	// kafka-consumer-groups.sh --list prints groups in the broker's order;
	// kgroups sorts them by name.
	t.Run("list", func(t *testing.T) {
		c.compare(t, "list", []string{"list"}, []string{"--list", "--type", "--state"}, byGroup)
		c.compare(t, "list stable", []string{"list", "--state", "Stable"}, []string{"--list", "--state", "Stable"}, byGroup)
		c.compare(t, "list consumer", []string{"list", "--type", "consumer"}, []string{"--list", "--type", "consumer"}, byGroup)
		c.compare(t, "list classic empty", []string{"list", "--type", "classic", "--state", "Empty"},
			[]string{"--list", "--type", "classic", "--state", "Empty"}, byGroup)
	})
}
