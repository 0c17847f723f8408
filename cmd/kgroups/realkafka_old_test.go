//go:build realkafka

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// TestRealOldBrokers runs every kgroups command the README's Kafka
// versions table says works on a real Kafka 3.9 (KRaft) and a real Kafka
// 2.8 (ZooKeeper) cluster, and holds each to that release's own
// kafka-consumer-groups.sh, as a user of an old cluster runs it (the 4.2
// tool too, for describe and list): describe and its views, list and its
// filters, health's and time lag's numbers, diagnose's findings, serve's
// metrics page, simulate's prediction against what the broker then
// assigned, every reset scenario, delete-offsets, delete, member removal
// and undo, each write read back by the release's tool. One cluster per
// release serves every subtest. The groups are startParity's (no KIP-848
// groups: 3.9 refuses the protocol unless enabled, 2.8 has none), with
// seedWrites' topic w and a topic held by an open transaction.
func TestRealOldBrokers(t *testing.T) {
	for _, v := range []string{"3.9.1", "2.8.2"} {
		t.Run(v, func(t *testing.T) {
			start := time.Now()
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			c := startParity(t, v)
			w := seedWrites(t, c.Cluster)
			tx, txGroup := openTransaction(t, c.Cluster)
			t.Logf("Kafka %s: cluster and groups ready in %s", v, time.Since(start).Round(time.Second))
			oldVersions(t, c)
			oldCurrentTool(t, c)
			oldDescribe(t, c)
			oldList(t, c)
			oldHealth(t, c)
			oldDiagnose(t, c, tx, txGroup, w)
			oldServe(t, c)
			oldSimulate(t, c)
			oldResets(t, c, w)
			oldDeletesAndUndo(t, c, w)
			oldMemberRemoval(t, c)
			t.Logf("Kafka %s: %s in all", v, time.Since(start).Round(time.Second))
		})
	}
}

// oldVersions: what the real broker advertises (ApiVersions) supports
// the README's table's features exactly where the kversion release tables
// kgroups and kfake's emulation read say it does; and a 3.9 broker,
// which advertises ConsumerGroupHeartbeat v0, refuses a KIP-848 member
// unless the protocol is enabled (kfake with 3.9's versions takes it).
func oldVersions(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("versions", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), realkafka.Wait)
		defer cancel()
		resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, c.Client())
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		if err != nil {
			t.Fatalf("ApiVersions: %v", err)
		}
		advertised := kversion.FromApiVersionsResponse(resp)
		table := map[string]*kversion.Versions{"3.9.1": kversion.V3_9_0(), "2.8.2": kversion.V2_8_0()}[c.Version]
		var missing []string
		for _, f := range kafka.Features() {
			if f.SupportedBy(advertised) != f.SupportedBy(table) {
				t.Errorf("Kafka %s: %s (%s) supported %v, kversion's table %v", c.Version, f.ID, f.Request(), f.SupportedBy(advertised), f.SupportedBy(table))
			}
			if !f.SupportedBy(advertised) {
				missing = append(missing, f.ID)
			}
		}
		want := map[string][]string{"3.9.1": nil, "2.8.2": {"transactions", "transaction-details", "offset-fetch-batch", "consumer-groups"}}[c.Version]
		if !slices.Equal(missing, want) {
			t.Errorf("Kafka %s lacks %q, want %q", c.Version, missing, want)
		}
		if c.Version < "3" {
			return
		}
		hb := kmsg.NewPtrConsumerGroupHeartbeatRequest()
		hb.Version = 0
		hb.Group, hb.MemberEpoch, hb.RebalanceTimeoutMillis = c.Name("k-probe"), 0, 30000
		hb.SubscribedTopicNames = []string{c.Name("orders")}
		hb.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
		hbResp, err := hb.RequestWith(ctx, c.Client())
		if err != nil {
			t.Fatalf("ConsumerGroupHeartbeat: %v", err)
		}
		if got := kerr.ErrorForCode(hbResp.ErrorCode); !errors.Is(got, kerr.UnsupportedVersion) {
			t.Errorf("Kafka %s answers a KIP-848 join with %v, want UNSUPPORTED_VERSION", c.Version, got)
		}
	})
}

// oldTool is the wording of the brokers' own kafka-consumer-groups.sh:
// the 2.8 and 3.9 tools print a --members --verbose member's partitions
// as ASSIGNMENT, topic(0,1), where the 4.2 tool prints
// CURRENT-ASSIGNMENT, as kgroups does, topic:0,1.
func oldTool(rows []realkafka.Row) []realkafka.Row {
	out := make([]realkafka.Row, 0, len(rows))
	for _, r := range rows {
		i := slices.Index(r.Header, "ASSIGNMENT")
		if i < 0 {
			out = append(out, r)
			continue
		}
		h, cells := slices.Clone(r.Header), slices.Clone(r.Cells)
		h[i], cells[i] = "CURRENT-ASSIGNMENT", kgAssignment(cells[i])
		out = append(out, realkafka.Row{Header: h, Cells: cells})
	}
	return out
}

// oldExact is exact, but for one more blank cell of the 2.8 and 3.9
// tools: an Empty group's ASSIGNMENT-STRATEGY, where kgroups (and the 4.2
// tool) print "-".
func oldExact(col, got, want string) bool {
	if col == "ASSIGNMENT-STRATEGY" && want == "" {
		return got == "-"
	}
	if col == "CURRENT-ASSIGNMENT" && strings.HasPrefix(want, ":") {
		// Kafka 3.9.1's tool prints ASSIGNMENT without topic
		// names, (0,1), (0): compare the partitions it shows.
		return withoutTopics(got) == want
	}
	return exact(col, got, want)
}

// withoutTopics is a kgroups assignment, orders:0,1;payments:0, as
// kgAssignment reads the 3.9 tool's, :0;:0,1 (entries sorted).
func withoutTopics(a string) string {
	if a == "-" {
		return a
	}
	parts := strings.Split(a, ";")
	for i, p := range parts {
		parts[i] = p[strings.IndexByte(p, ':'):]
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

var toolAssignment = regexp.MustCompile(`([^(),]*)\(([0-9,]*)\)`)

// kgAssignment rewrites a 2.8 tool's ASSIGNMENT, orders(0,1), payments(0),
// as kgroups writes it, orders:0,1;payments:0 ("-" stays "-"); the 3.9
// tool's (0,1), (0) becomes :0;:0,1.
func kgAssignment(cell string) string {
	ms := toolAssignment.FindAllStringSubmatch(cell, -1)
	if len(ms) == 0 {
		return cell
	}
	var parts []string
	for _, m := range ms {
		parts = append(parts, strings.TrimSpace(m[1])+":"+m[2])
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

// oldCurrentTool: describe and list held to the 4.2 tool, as a user with
// current tools on an old cluster runs them.
func oldCurrentTool(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("tool-4.2", func(t *testing.T) {
		byMember := how{sortBy: []string{"GROUP", "CONSUMER-ID"}}
		all := []string{"--describe", "--all-groups"}
		c.compare(t, "describe", []string{"describe", "--all-groups", "--verbose"}, append(all, "--verbose"), how{})
		c.compare(t, "members", []string{"describe", "--all-groups", "--members", "--verbose"}, append(all, "--members", "--verbose"), byMember)
		c.compare(t, "state", []string{"describe", "--all-groups", "--state"}, append(all, "--state"), how{})
		c.compare(t, "list", []string{"list", "--state", "Empty,Stable"}, []string{"--list", "--state"}, how{sortBy: []string{"GROUP"}})
	})
}

// oldDescribe: describe and its views, all groups and one at a time,
// held to the release's own tool.
func oldDescribe(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("describe", func(t *testing.T) {
		all := []string{"--describe", "--all-groups"}
		own := how{own: true, kafka: oldTool, equal: oldExact}
		// The 2.8 tool lists a member's partitions in its assignment's
		// order (payments before orders), kgroups and later tools by topic
		// and partition: compare as sets.
		byPartition := how{own: true, kafka: oldTool, equal: oldExact, sortBy: []string{"GROUP", "TOPIC", "PARTITION"}}
		byMember := how{own: true, kafka: oldTool, equal: oldExact, sortBy: []string{"GROUP", "CONSUMER-ID"}}
		_, want := c.compare(t, "describe", []string{"describe", "--all-groups"}, all, byPartition)
		// 2 partitions each of 5 groups of members, and e-classic's 3 and
		// e-admin's 2 commits.
		if len(want) != 5*5+3+2 {
			t.Errorf("describe: %d rows from Kafka %s, want 30", len(want), c.Version)
		}
		c.compare(t, "describe verbose", []string{"describe", "--all-groups", "--verbose"}, append(all, "--verbose"), byPartition)
		c.compare(t, "members", []string{"describe", "--all-groups", "--members"}, append(all, "--members"), byMember)
		c.compare(t, "members verbose", []string{"describe", "--all-groups", "--members", "--verbose"}, append(all, "--members", "--verbose"), byMember)
		_, st := c.compare(t, "state", []string{"describe", "--all-groups", "--state"}, append(all, "--state"), own)
		if len(st) != len(c.groups) {
			t.Errorf("state: %d rows from Kafka %s, want %d", len(st), c.Version, len(c.groups))
		}
		c.compare(t, "state verbose", []string{"describe", "--all-groups", "--state", "--verbose"}, append(all, "--state", "--verbose"), own)
		for _, name := range []string{"c-static", "e-admin"} {
			g := c.Name(name)
			c.compare(t, "describe "+g, []string{"describe", g, "--verbose"}, []string{"--describe", "--group", g, "--verbose"}, byPartition)
			c.compare(t, "members "+g, []string{"describe", g, "--members", "--verbose"},
				[]string{"--describe", "--group", g, "--members", "--verbose"}, how{own: true, kafka: oldTool, equal: oldExact, sortBy: byMember.sortBy, mayBeEmpty: true})
			c.compare(t, "state "+g, []string{"describe", g, "--state"}, []string{"--describe", "--group", g, "--state"}, own)
		}
	})
}

// oldList: list and its filters, held to the release's own tool. Before
// 3.8 the tool has no --type, and --list alone prints bare names.
func oldList(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("list", func(t *testing.T) {
		byGroup := how{own: true, sortBy: []string{"GROUP"}, equal: sameType}
		names := c.ReleaseGroups(t, "--list")
		var want []string
		for _, n := range strings.Fields(names) {
			if slices.Contains(c.groups, n) {
				want = append(want, n)
			}
		}
		slices.Sort(want)
		if !slices.Equal(want, c.groups) {
			t.Errorf("kafka-consumer-groups.sh --list lists %v, want %v", want, c.groups)
		}
		c.compare(t, "list", []string{"list"}, []string{"--list", "--state"}, byGroup)
		_, stable := c.compare(t, "list stable", []string{"list", "--state", "Stable"}, []string{"--list", "--state", "Stable"}, byGroup)
		_, empty := c.compare(t, "list empty", []string{"list", "--state", "Empty"}, []string{"--list", "--state", "Empty"}, byGroup)
		if len(stable) != 5 || len(empty) != 2 {
			t.Errorf("Kafka %s lists %d Stable and %d Empty groups, want 5 and 2", c.Version, len(stable), len(empty))
		}
		if c.Version >= "3.8" {
			c.compare(t, "list types", []string{"list"}, []string{"--list", "--type", "--state"}, byGroup)
			c.compare(t, "list classic empty", []string{"list", "--type", "classic", "--state", "Empty"},
				[]string{"--list", "--type", "classic", "--state", "Empty"}, byGroup)
		}
	})
}

// frozen runs the release's tool with args, then read, then the tool
// again, until both tool runs agree: the groups were at rest while read
// ran. It returns the tool's rows for the cluster's groups.
func frozen(t *testing.T, c *parityCluster, args []string, read func()) []realkafka.Row {
	t.Helper()
	for range 5 {
		before := c.ReleaseGroups(t, args...)
		read()
		if after := c.ReleaseGroups(t, args...); after != before {
			t.Logf("%v: the groups moved; again", args)
			continue
		}
		rows, err := realkafka.KafkaRows(before)
		if err != nil {
			t.Fatal(err)
		}
		return realkafka.FilterRows(rows, c.groups)
	}
	t.Fatalf("%v: the groups never held still", args)
	return nil
}

// partitionKey is "group topic/partition".
func partitionKey(group, topic string, p any) string { return fmt.Sprintf("%s %s/%v", group, topic, p) }

// oldHealth: health's and describe --time-lag's numbers on an old broker,
// field for field with the release's tool: every committed offset, log
// end and lag, each group's total lag, and the time lag of a lagging
// partition against the timestamp of the record at its commit.
func oldHealth(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("health", func(t *testing.T) {
		var doc struct {
			Groups []struct {
				Group      string `json:"group"`
				Status     string `json:"status"`
				TotalLag   int64  `json:"totalLag"`
				Partitions []struct {
					Topic     string `json:"topic"`
					Partition int32  `json:"partition"`
					Committed *int64 `json:"committedOffset"`
					End       int64  `json:"logEndOffset"`
					Lag       *int64 `json:"lag"`
				} `json:"partitions"`
			} `json:"groups"`
		}
		rows := frozen(t, c, []string{"--describe", "--all-groups"}, func() {
			args := append([]string{"-b", c.Bootstrap, "health"}, c.groups...)
			code, out, errOut := kg(t, append(args, "--window", "2s", "--interval", "1s", "-o", "json")...)
			if code != 0 {
				t.Fatalf("kgroups health exited %d:\n%s%s", code, out, errOut)
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("health json: %v\n%s", err, out)
			}
		})
		want, sums := map[string]string{}, map[string]int64{}
		for _, r := range rows {
			g, topic, p := cell(r, "GROUP"), cell(r, "TOPIC"), cell(r, "PARTITION")
			if cell(r, "CURRENT-OFFSET") == "-" {
				continue // assigned, never committed: health judges commits
			}
			want[partitionKey(g, topic, p)] = cell(r, "CURRENT-OFFSET") + " " + cell(r, "LOG-END-OFFSET") + " " + cell(r, "LAG")
			n, _ := strconv.ParseInt(cell(r, "LAG"), 10, 64)
			sums[g] += n
		}
		got := map[string]string{}
		for _, g := range doc.Groups {
			if g.TotalLag != sums[g.Group] {
				t.Errorf("health: %s total lag %d, Kafka %s's LAG adds up to %d", g.Group, g.TotalLag, c.Version, sums[g.Group])
			}
			for _, p := range g.Partitions {
				if p.Committed == nil || p.Lag == nil {
					continue
				}
				got[partitionKey(g.Group, p.Topic, p.Partition)] = fmt.Sprintf("%d %d %d", *p.Committed, p.End, *p.Lag)
			}
		}
		if len(doc.Groups) != len(c.groups) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("health (%d groups) reads committed, log end, lag:\n%v\nKafka %s:\n%v", len(doc.Groups), got, c.Version, want)
		}
		// e-admin lags 4+3 on orders/0 (committed 3, log end 14) and 4
		// on orders/2 (1 of 5); e-classic 4 on orders/0.
		if sums[c.Name("e-admin")] != 11+4 || sums[c.Name("e-classic")] != 4 {
			t.Errorf("Kafka %s: e-admin lags %d, e-classic %d; want 15 and 4", c.Version, sums[c.Name("e-admin")], sums[c.Name("e-classic")])
		}
	})
	t.Run("time-lag", func(t *testing.T) {
		g, orders := c.Name("e-admin"), c.Name("orders")
		var doc struct {
			Groups []struct {
				Partitions []struct {
					Topic     string   `json:"topic"`
					Partition int32    `json:"partition"`
					Committed *int64   `json:"committedOffset"`
					Lag       *int64   `json:"lag"`
					TimeLag   *float64 `json:"timeLagSeconds"`
				} `json:"partitions"`
			} `json:"groups"`
		}
		var before, after time.Time
		rows := frozen(t, c, []string{"--describe", "--group", g}, func() {
			before = time.Now()
			code, out, errOut := kg(t, "-b", c.Bootstrap, "describe", g, "--time-lag", "-o", "json")
			after = time.Now()
			if code != 0 {
				t.Fatalf("kgroups describe --time-lag exited %d:\n%s%s", code, out, errOut)
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Groups) != 1 {
				t.Fatalf("describe json: %v\n%s", err, out)
			}
		})
		if len(rows) != 2 || len(doc.Groups[0].Partitions) != 2 {
			t.Fatalf("Kafka %s lists %d partitions of %s, kgroups %d", c.Version, len(rows), g, len(doc.Groups[0].Partitions))
		}
		for i, p := range doc.Groups[0].Partitions {
			r := rows[i]
			if p.Topic != orders || cell(r, "PARTITION") != fmt.Sprint(p.Partition) || p.Committed == nil ||
				cell(r, "CURRENT-OFFSET") != fmt.Sprint(*p.Committed) || p.Lag == nil || cell(r, "LAG") != fmt.Sprint(*p.Lag) {
				t.Errorf("time lag: kgroups %s/%d committed %v lag %v, Kafka %v", p.Topic, p.Partition, p.Committed, p.Lag, r.Cells)
				continue
			}
			// The time lag of a lagging partition is how old the record at
			// the commit was when kgroups read it.
			ts := c.RecordTime(t, orders, p.Partition, *p.Committed)
			lo, hi := math.Floor(before.Sub(ts).Seconds())-1, math.Ceil(after.Sub(ts).Seconds())+1
			if p.TimeLag == nil || *p.TimeLag < lo || *p.TimeLag > hi {
				t.Errorf("time lag of %s/%d: %v s, want the age of the record at %d, %.0f to %.0f s", orders, p.Partition, p.TimeLag, *p.Committed, lo, hi)
			}
		}
	})
}

// openTransaction leaves a transaction open on topic tx from offset 5 of
// 8, and commits offset 2 for group tx-g, as TestRealOpenTransaction.
func openTransaction(t *testing.T, c *realkafka.Cluster) (topic, group string) {
	t.Helper()
	topic, group = c.Name("tx"), c.Name("tx-g")
	c.CreateTopic(t, topic, 1)
	c.Produce(t, topic, 0, 5, time.Time{})
	ctx, cancel := context.WithTimeout(context.Background(), realkafka.Wait)
	defer cancel()
	tx, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.TransactionalID(c.Name("tx-producer")),
		kgo.TransactionTimeout(5*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tx.Close)
	if err := tx.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := tx.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: 0, Value: []byte{byte(i)}}).FirstErr(); err != nil {
			t.Fatalf("transactional produce: %v", err)
		}
	}
	c.Commit(t, group, map[string]map[int32]int64{topic: {0: 2}})
	return topic, group
}

// diagnoseDoc is diagnose's JSON document.
type diagnoseDoc struct {
	Groups []struct {
		Group    string `json:"group"`
		Findings []struct {
			ID        string         `json:"id"`
			Severity  string         `json:"severity"`
			Topic     *string        `json:"topic"`
			Partition *int32         `json:"partition"`
			Evidence  map[string]any `json:"evidence"`
		} `json:"findings"`
	} `json:"groups"`
	Notes []struct {
		Feature  string `json:"feature"`
		MinKafka string `json:"minKafka"`
		Reason   string `json:"reason"`
	} `json:"notes"`
}

// oldDiagnose: the findings diagnose makes from an old broker's answers,
// their evidence against the release's tool: a group held back by an open
// transaction (the producer named from 2.8, the transactional id from
// 3.0; a note says what a 2.8 broker cannot answer), a commit below the
// log start and one past the log end.
func oldDiagnose(t *testing.T, c *parityCluster, tx, txGroup, w string) {
	t.Helper()
	t.Run("diagnose", func(t *testing.T) {
		lost, beyond := c.Name("dg-lost"), c.Name("dg-beyond")
		c.Commit(t, lost, map[string]map[int32]int64{w: {0: 1}})   // w/0 starts at 2
		c.Commit(t, beyond, map[string]map[int32]int64{w: {1: 9}}) // w/1 ends at 6
		want := map[string]map[string]string{}
		for _, g := range []string{txGroup, lost, beyond} {
			rows, err := realkafka.KafkaRows(c.ReleaseGroups(t, "--describe", "--group", g))
			if err != nil || len(rows) != 1 {
				t.Fatalf("Kafka %s describes %s as %v (%v)", c.Version, g, rows, err)
			}
			want[g] = map[string]string{"committed": cell(rows[0], "CURRENT-OFFSET"), "end": cell(rows[0], "LOG-END-OFFSET"), "lag": cell(rows[0], "LAG")}
		}
		// The tool's own reading of what diagnose judges.
		if fmt.Sprint(want) != fmt.Sprint(map[string]map[string]string{
			txGroup: {"committed": "2", "end": "8", "lag": "6"},
			lost:    {"committed": "1", "end": "10", "lag": "9"},
			beyond:  {"committed": "9", "end": "6", "lag": "-3"},
		}) {
			t.Errorf("Kafka %s reads %v", c.Version, want)
		}
		code, out, errOut := kg(t, "-b", c.Bootstrap, "diagnose", txGroup, lost, beyond, "--window", "3s", "--interval", "1s", "-o", "json")
		if code != 0 {
			t.Fatalf("kgroups diagnose exited %d:\n%s%s", code, out, errOut)
		}
		var doc diagnoseDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("diagnose json: %v\n%s", err, out)
		}
		found := map[string]string{}
		evidence := map[string]map[string]any{}
		for _, g := range doc.Groups {
			for _, f := range g.Findings {
				found[g.Group] += f.ID + " "
				evidence[g.Group] = f.Evidence
			}
		}
		// Each finding's evidence, field for field with the tool's.
		num := func(v any) string {
			if v == nil {
				return "null"
			}
			return fmt.Sprint(v)
		}
		for g, fields := range map[string][]string{
			txGroup: {"committedOffset", "logEndOffset"},
			lost:    {"committedOffset", "logEndOffset"},
			beyond:  {"committedOffset", "logEndOffset"},
		} {
			for _, f := range fields {
				col := map[string]string{"committedOffset": "committed", "logEndOffset": "end"}[f]
				if got := num(evidence[g][f]); got != want[g][col] {
					t.Errorf("diagnose %s: %s %s, Kafka %s %s", g, f, got, c.Version, want[g][col])
				}
			}
		}
		ev := func(g string, keys ...string) string {
			var parts []string
			for _, k := range keys {
				parts = append(parts, k+"="+num(evidence[g][k]))
			}
			return strings.Join(parts, " ")
		}
		if got := ev(lost, "logStartOffset", "recordsLost"); got != "logStartOffset=2 recordsLost=1" {
			t.Errorf("diagnose %s: %s", lost, got)
		}
		if got := ev(beyond, "beyondBy"); got != "beyondBy=3" {
			t.Errorf("diagnose %s: %s", beyond, got)
		}
		if got := ev(txGroup, "lastStableOffset", "lagToStable", "transactionStartOffset"); got != "lastStableOffset=5 lagToStable=3 transactionStartOffset=5" {
			t.Errorf("diagnose %s: %s", txGroup, got)
		}
		txn := ev(txGroup, "producerId", "producerEpoch", "transactionalId", "transactionState", "timeoutMs")
		if c.Version < "3" {
			// No kafka-transactions.sh before 3.0, and no ListTransactions:
			// the producer alone, from DescribeProducers (2.8).
			if !strings.HasPrefix(txn, "producerId=") || strings.HasPrefix(txn, "producerId=null") ||
				!strings.HasSuffix(txn, "transactionalId=null transactionState=null timeoutMs=null") {
				t.Errorf("diagnose %s on Kafka %s: %s", txGroup, c.Version, txn)
			}
		} else {
			// The release's kafka-transactions.sh reads the same producer
			// and transaction.
			out, errOut, code := c.ReleaseTool(t, "org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", c.Bootstrap,
				"describe-producers", "--topic", tx, "--partition", "0")
			// The open transaction's producer (c.Produce's idempotent
			// producer has none open).
			var prod []realkafka.Row
			for _, r := range tabRows(out) {
				if cell(r, "CurrentTransactionStartOffset") != "None" {
					prod = append(prod, r)
				}
			}
			if code != 0 || len(prod) != 1 {
				t.Fatalf("kafka-transactions.sh describe-producers: exit %d\n%s%s", code, out, errOut)
			}
			out, errOut, code = c.ReleaseTool(t, "org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", c.Bootstrap,
				"describe", "--transactional-id", c.Name("tx-producer"))
			desc := tabRows(out)
			if code != 0 || len(desc) != 1 {
				t.Fatalf("kafka-transactions.sh describe: exit %d\n%s%s", code, out, errOut)
			}
			want := fmt.Sprintf("producerId=%s producerEpoch=%s transactionalId=%s transactionState=%s timeoutMs=%s",
				cell(prod[0], "ProducerId"), cell(prod[0], "ProducerEpoch"), cell(desc[0], "TransactionalId"),
				cell(desc[0], "TransactionState"), cell(desc[0], "TransactionTimeoutMs"))
			if txn != want || cell(prod[0], "CurrentTransactionStartOffset") != "5" {
				t.Errorf("diagnose %s on Kafka %s: %s\nkafka-transactions.sh: %s, start offset %s", txGroup, c.Version, txn, want,
					cell(prod[0], "CurrentTransactionStartOffset"))
			}
		}
		if found[txGroup] != "stuck-behind-open-transaction " || found[lost] != "records-lost-to-retention " || found[beyond] != "offset-beyond-log-end " {
			t.Errorf("diagnose on Kafka %s finds %v", c.Version, found)
		}
		var notes []string
		for _, n := range doc.Notes {
			notes = append(notes, n.Feature+" "+n.MinKafka+" "+n.Reason)
		}
		wantNotes := []string(nil)
		if c.Version < "3" {
			// DescribeTransactions is not tried without the transactional
			// id ListTransactions gives: one note.
			wantNotes = []string{"transactions 3.0 unsupported"}
		}
		if !slices.Equal(notes, wantNotes) {
			t.Errorf("diagnose on Kafka %s notes %q, want %q", c.Version, notes, wantNotes)
		}
		if t.Failed() {
			t.Logf("diagnose:\n%s%s", out, errOut)
		}
	})
}

// oldServe: serve's metrics page on an old broker, each group's state,
// members, coordinator and lag against the release's tool.
func oldServe(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("serve", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		listen := l.Addr().String()
		_ = l.Close()
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan string, 1)
		go func() {
			var out, errOut bytes.Buffer
			code := run(ctx, []string{"-b", c.Bootstrap, "serve", "--listen", listen, "--refresh", "1s"}, strings.NewReader(""), &out, &errOut)
			served <- fmt.Sprintf("exit %d\n%s%s", code, out.String(), errOut.String())
		}()
		defer func() {
			stop()
			t.Logf("serve: %s", <-served)
		}()
		scrape := func() string {
			resp, err := http.Get("http://" + listen + "/metrics")
			if err != nil {
				return ""
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			return string(b)
		}
		polls := func(page string) int {
			v, _ := strconv.Atoi(metric(page, "kgroups_polls_total", ""))
			return v
		}
		var page string
		// A page from a poll made between the two tool runs.
		state := frozen(t, c, []string{"--describe", "--all-groups", "--state"}, func() {
			n := polls(scrape())
			for deadline := time.Now().Add(realkafka.Wait); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				if page = scrape(); polls(page) > n+1 {
					return
				}
			}
			t.Fatalf("serve made no poll in %s", realkafka.Wait)
		})
		lagRows := frozen(t, c, []string{"--describe", "--all-groups"}, func() {
			n := polls(scrape())
			for deadline := time.Now().Add(realkafka.Wait); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				if page = scrape(); polls(page) > n+1 {
					return
				}
			}
		})
		lags := map[string]int64{}
		for _, r := range lagRows {
			n, _ := strconv.ParseInt(cell(r, "LAG"), 10, 64)
			lags[cell(r, "GROUP")] += n
		}
		if len(state) != len(c.groups) {
			t.Fatalf("Kafka %s --state lists %d groups, want %d", c.Version, len(state), len(c.groups))
		}
		for _, r := range state {
			g := cell(r, "GROUP")
			coord := cell(r, "COORDINATOR (ID)")
			coord = coord[strings.LastIndex(coord, "(")+1 : len(coord)-1]
			info := metricLine(page, "kgroups_group_info", `group="`+g+`"`)
			for _, want := range []string{`state="` + cell(r, "STATE") + `"`, `coordinator="` + coord + `"`,
				`assignor="` + cell(r, "ASSIGNMENT-STRATEGY") + `"`} {
				if !strings.Contains(info, want) {
					t.Errorf("serve: %q, want %s as Kafka %s says", info, want, c.Version)
				}
			}
			if got := metric(page, "kgroups_group_members", `group="`+g+`"`); got != cell(r, "#MEMBERS") {
				t.Errorf("serve: %s has %s members, Kafka %s %s", g, got, c.Version, cell(r, "#MEMBERS"))
			}
			if got := metric(page, "kgroups_group_lag_records", `group="`+g+`"`); got != fmt.Sprint(lags[g]) {
				t.Errorf("serve: %s lags %s, Kafka %s %d", g, got, c.Version, lags[g])
			}
		}
	})
}

// metricLine is the first line of family's series whose labels hold
// label, or "".
func metricLine(page, family, label string) string {
	for _, line := range strings.Split(page, "\n") {
		if (strings.HasPrefix(line, family+"{") || strings.HasPrefix(line, family+" ")) && strings.Contains(line, label) {
			return line
		}
	}
	return ""
}

// metric is the value of metricLine.
func metric(page, family, label string) string {
	l := metricLine(page, family, label)
	return l[strings.LastIndex(l, " ")+1:]
}

// oldSimulate: simulate reads a group's assignment as the release's tool
// does, and its prediction for a leave under the group's own assignor
// (Java's range, exact) is what the broker's group then settles on when
// that member closes.
func oldSimulate(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("simulate", func(t *testing.T) {
		g := c.Name("c-range")
		topics := []string{c.Name("orders"), c.Name("payments")}
		members := func() map[string]string { // member id -> topic:0,1;topic:2
			rows := realkafka.FilterRows(mustRows(t, c.ReleaseGroups(t, "--describe", "--group", g)), c.groups)
			owned := map[string]map[string][]string{}
			for _, r := range rows {
				id := cell(r, "CONSUMER-ID")
				if owned[id] == nil {
					owned[id] = map[string][]string{}
				}
				owned[id][cell(r, "TOPIC")] = append(owned[id][cell(r, "TOPIC")], cell(r, "PARTITION"))
			}
			m := map[string]string{}
			for id, tps := range owned {
				var parts []string
				for topic, ps := range tps {
					slices.Sort(ps)
					parts = append(parts, topic+":"+strings.Join(ps, ","))
				}
				slices.Sort(parts)
				m[id] = strings.Join(parts, ";")
			}
			return m
		}
		before := members()
		if len(before) != 2 {
			t.Fatalf("Kafka %s lists %d members of %s", c.Version, len(before), g)
		}
		// The first member the JVM started has the lower client id
		// sequence: consumer-<group>-<n>.
		ids := slices.Collect(maps.Keys(before))
		slices.SortFunc(ids, func(a, b string) int { return clientSeq(a, g) - clientSeq(b, g) })
		leaving := ids[0]
		code, out, errOut := kg(t, "-b", c.Bootstrap, "simulate", g, "--leave", leaving, "-o", "json")
		if code != 0 {
			t.Fatalf("kgroups simulate exited %d:\n%s%s", code, out, errOut)
		}
		var doc struct {
			Assignors []struct {
				Assignor   string `json:"assignor"`
				Confidence string `json:"confidence"`
				Assignment map[string][]struct {
					Topic      string  `json:"topic"`
					Partitions []int32 `json:"partitions"`
				} `json:"assignment"`
			} `json:"assignors"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Assignors) == 0 {
			t.Fatalf("simulate json: %v\n%s", err, out)
		}
		own := doc.Assignors[0]
		if own.Assignor != "range" || own.Confidence != "exact" {
			t.Errorf("simulate on Kafka %s: the group's own row is %s, %s; want range, exact\n%s", c.Version, own.Assignor, own.Confidence, out)
		}
		c.clients.Close(t, g+"-1")
		c.Settled(t, map[string]realkafka.Want{g: {Members: 1, Topics: topics}})
		after := members()
		predicted := map[string]string{}
		for m, tps := range own.Assignment {
			var parts []string
			for _, tp := range tps {
				ps := make([]string, len(tp.Partitions))
				for i, p := range tp.Partitions {
					ps[i] = fmt.Sprint(p)
				}
				parts = append(parts, tp.Topic+":"+strings.Join(ps, ","))
			}
			slices.Sort(parts)
			predicted[m] = strings.Join(parts, ";")
		}
		if fmt.Sprint(predicted) != fmt.Sprint(after) || after[ids[1]] == "" {
			t.Errorf("simulate %s --leave %s predicted %v; Kafka %s then read %v", g, leaving, predicted, c.Version, after)
		}
	})
}

// clientSeq is n of a Java member id consumer-<group>-<n>-<uuid>.
func clientSeq(memberID, group string) int {
	rest := strings.TrimPrefix(memberID, "consumer-"+group+"-")
	n, _ := strconv.Atoi(rest[:max(strings.IndexByte(rest, '-'), 0)])
	return n
}

// tabRows parses kafka-transactions.sh's tables: a header and rows of
// tab-separated, space-padded cells.
func tabRows(out string) []realkafka.Row {
	var header []string
	var rows []realkafka.Row
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		cells := strings.Split(strings.TrimRight(line, "\t "), "\t")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if header == nil {
			header = cells
			continue
		}
		rows = append(rows, realkafka.Row{Header: header, Cells: cells})
	}
	return rows
}

func mustRows(t *testing.T, out string) []realkafka.Row {
	t.Helper()
	rows, err := realkafka.KafkaRows(out)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// oldResets: every reset scenario, its dry run held to the release's
// tool's --dry-run and its write read back by that tool; and the earlier
// resets of an Empty group of the parity set, read back by the 4.2 tool.
func oldResets(t *testing.T, c *parityCluster, w string) {
	t.Helper()
	t.Run("resets", func(t *testing.T) {
		group := c.Name("wg")
		for _, tc := range resetCases(t, w) {
			t.Run(tc.name, func(t *testing.T) { runResetCase(t, c.Cluster, group, w, tc, true) })
		}
	})
	t.Run("reset-current-tool", func(t *testing.T) {
		group, orders := c.Name("e-admin"), c.Name("orders")
		if code, out, errOut := kg(t, "-b", c.Bootstrap, "reset", group, "--to-earliest", "--all-topics", "--execute"); code != 0 {
			t.Fatalf("kgroups reset exited %d:\n%s%s", code, out, errOut)
		}
		expectOffsets(t, "reset to earliest", committed(t, c.Cluster, group), map[string]int64{orders + "/0": 0, orders + "/2": 0})
		if code, out, errOut := kg(t, "-b", c.Bootstrap, "reset", group, "--shift-by", "3", "--topic", orders+":0", "--execute"); code != 0 {
			t.Fatalf("kgroups reset exited %d:\n%s%s", code, out, errOut)
		}
		expectOffsets(t, "shift by 3", committed(t, c.Cluster, group), map[string]int64{orders + "/0": 3, orders + "/2": 0})
	})
}

// receiptIn finds "Receipt: PATH" and "... in the receipt PATH".
var receiptIn = regexp.MustCompile(`(?i)receipt:? (\S+\.json)`)

// receiptOf is the receipt path kgroups printed after a write.
func receiptOf(t *testing.T, out string) string {
	t.Helper()
	if m := receiptIn.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	t.Fatalf("no receipt in:\n%s", out)
	return ""
}

// oldDeletesAndUndo: a reset, delete-offsets and delete of a group, each
// undone from its receipt, every step read back by the release's tool.
func oldDeletesAndUndo(t *testing.T, c *parityCluster, w string) {
	t.Helper()
	t.Run("deletes-undo", func(t *testing.T) {
		group := c.Name("wd")
		c.Commit(t, group, map[string]map[int32]int64{w: {0: 5, 1: 3, 2: 0}})
		read := func() map[string]string { return committedBy(t, c.Cluster, group, true) }
		start := map[string]int64{w + "/0": 5, w + "/1": 3, w + "/2": 0}

		code, out, errOut := kg(t, "-b", c.Bootstrap, "reset", group, "--to-latest", "--topic", w+":0,1", "--execute")
		if code != 0 {
			t.Fatalf("kgroups reset exited %d:\n%s%s", code, out, errOut)
		}
		expectOffsets(t, "reset to latest", read(), map[string]int64{w + "/0": 10, w + "/1": 6, w + "/2": 0})
		undo := func(what, out string) {
			t.Helper()
			if code, uOut, uErr := kg(t, "-b", c.Bootstrap, "undo", receiptOf(t, out), "--execute"); code != 0 {
				t.Fatalf("kgroups undo of %s exited %d:\n%s%s", what, code, uOut, uErr)
			}
		}
		undo("the reset", out+errOut)
		expectOffsets(t, "undo of the reset", read(), start)

		code, out, errOut = kg(t, "-b", c.Bootstrap, "delete-offsets", group, "--topic", w+":1", "--execute")
		if code != 0 {
			t.Fatalf("kgroups delete-offsets exited %d:\n%s%s", code, out, errOut)
		}
		expectOffsets(t, "after delete-offsets", read(), map[string]int64{w + "/0": 5, w + "/2": 0})
		undo("delete-offsets", out+errOut)
		expectOffsets(t, "undo of delete-offsets", read(), start)

		code, out, errOut = kg(t, "-b", c.Bootstrap, "delete", group, "--execute")
		if code != 0 {
			t.Fatalf("kgroups delete exited %d:\n%s%s", code, out, errOut)
		}
		if list := c.ReleaseGroups(t, "--list"); slices.Contains(strings.Fields(list), group) {
			t.Errorf("Kafka %s's tool still lists %s after kgroups delete:\n%s", c.Version, group, list)
		}
		dOut, dErr, _ := c.ReleaseTool(t, realkafka.ReleaseConsumerGroups, "--bootstrap-server", c.Bootstrap, "--describe", "--group", group)
		if !strings.Contains(dOut+dErr, "does not exist") && !strings.Contains(dOut+dErr, "not found") {
			t.Errorf("Kafka %s's tool describes %s after kgroups delete:\n%s%s", c.Version, group, dOut, dErr)
		}
		undo("delete", out+errOut)
		expectOffsets(t, "undo of delete", read(), start)

		// A live group refuses them all, and nothing changes.
		live := c.Name("c-sticky")
		liveBefore := committedBy(t, c.Cluster, live, true)
		for _, args := range [][]string{
			{"reset", live, "--to-earliest", "--all-topics", "--execute"},
			{"delete-offsets", live, "--topic", c.Name("orders"), "--execute"},
			{"delete", live, "--execute"},
		} {
			code, out, errOut := kg(t, append([]string{"-b", c.Bootstrap}, args...)...)
			if code == 0 {
				t.Errorf("kgroups %v on a Stable group exited 0:\n%s%s", args, out, errOut)
			}
		}
		if after := committedBy(t, c.Cluster, live, true); fmt.Sprint(after) != fmt.Sprint(liveBefore) {
			t.Errorf("a refused write changed %s: %v -> %v", live, liveBefore, after)
		}
	})
}

// oldMemberRemoval: rebalance --instance of a static member and
// --member of a dynamic one, read back by the release's tool: each is
// back under a new member id, its sibling untouched.
func oldMemberRemoval(t *testing.T, c *parityCluster) {
	t.Helper()
	t.Run("member-removal", func(t *testing.T) {
		topics := []string{c.Name("orders"), c.Name("payments")}
		read := func(g string) map[string]string { // instance id or member id -> member id
			rows := realkafka.FilterRows(mustRows(t, c.ReleaseGroups(t, "--describe", "--group", g, "--members")), c.groups)
			m := map[string]string{}
			for _, r := range rows {
				key := cell(r, "GROUP-INSTANCE-ID")
				if key == "" || key == "-" {
					key = cell(r, "CONSUMER-ID")
				}
				m[key] = cell(r, "CONSUMER-ID")
			}
			return m
		}
		static := c.Name("c-static")
		before := read(static)
		if len(before) != 2 || before["static-a"] == "" {
			t.Fatalf("Kafka %s lists %v as %s's members", c.Version, before, static)
		}
		if code, out, errOut := kg(t, "-b", c.Bootstrap, "rebalance", static, "--instance", "static-a", "--execute", "--timeout", "60s"); code != 0 {
			t.Fatalf("kgroups rebalance --instance exited %d:\n%s%s", code, out, errOut)
		}
		c.Settled(t, map[string]realkafka.Want{static: {Members: 2, Topics: topics}})
		after := read(static)
		if len(after) != 2 || after["static-a"] == before["static-a"] || after["static-a"] == "" || after["static-b"] != before["static-b"] {
			t.Errorf("rebalance --instance static-a on Kafka %s: members %v, then %v", c.Version, before, after)
		}

		dyn := c.Name("c-roundrobin")
		before = read(dyn)
		var victim, sibling string
		for id := range before {
			if victim == "" || id < victim {
				victim, sibling = id, victim
			} else {
				sibling = id
			}
		}
		if code, out, errOut := kg(t, "-b", c.Bootstrap, "rebalance", dyn, "--member", victim, "--execute", "--timeout", "60s"); code != 0 {
			t.Fatalf("kgroups rebalance --member exited %d:\n%s%s", code, out, errOut)
		}
		c.Settled(t, map[string]realkafka.Want{dyn: {Members: 2, Topics: topics}})
		after = read(dyn)
		if len(after) != 2 || after[victim] != "" || after[sibling] != sibling {
			t.Errorf("rebalance --member %s on Kafka %s: members %v, then %v", victim, c.Version, before, after)
		}
	})
}
