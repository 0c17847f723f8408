package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// matrixVersions are the Kafka releases the version matrix runs against:
// kfake advertising each release's API versions (nil: kfake's own, the
// newest).
var matrixVersions = []struct {
	name string
	v    func() *kversion.Versions
}{
	{"2.1", kversion.V2_1_0}, {"2.4", kversion.V2_4_0}, {"2.8", kversion.V2_8_0},
	{"3.0", kversion.V3_0_0}, {"3.6", kversion.V3_6_0}, {"3.9", kversion.V3_9_0},
	{"4.0", kversion.V4_0_0}, {"4.2", kversion.V4_2_0}, {"newest", nil},
}

// versionCluster is the matrix's data, the same on every release:
//
//	orders (3 partitions, log end 11, 11, 12): orders/0 holds 10 records
//	and an open transaction's record, so its last stable offset is 10;
//	g-idle, Empty (its member left), commits 0->3, 1->11, 2->12 (lags 8,
//	0, 0);
//	g-live, one classic member live-a (range), commits 0->5, 1->5, 2->5
//	(lags 6, 6, 7).
type versionCluster struct {
	*kafkatest.Cluster
	name    string
	v       *kversion.Versions // nil: the newest
	brokers string
	state   string // XDG_STATE_HOME, where receipts go
	live    *kafkatest.Member
	vs      *kversion.Versions // what the brokers advertise (lacks)
}

func startVersionCluster(t *testing.T, name string, v *kversion.Versions) *versionCluster {
	t.Helper()
	var opts []kfake.Opt
	if v != nil {
		opts = append(opts, kfake.MaxVersions(v))
	}
	c := kafkatest.NewCluster(t, opts...)
	c.CreateTopic(t, "orders", 3)
	for p, n := range []int{10, 11, 12} {
		c.Produce(t, "orders", int32(p), n, zeroTime)
	}
	txn, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("matrix-txn"),
		kgo.TransactionTimeout(10*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(txn.Close)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	if err := txn.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := txn.ProduceSync(ctx, &kgo.Record{Topic: "orders", Partition: 0, Value: []byte("open")}).FirstErr(); err != nil {
		t.Fatalf("produce in a transaction: %v", err)
	}
	c.JoinAndLeave(t, "g-idle", []string{"orders"})
	c.Commit(t, "g-idle", map[string]map[int32]int64{"orders": {0: 3, 1: 11, 2: 12}})
	c.Commit(t, "g-live", map[string]map[int32]int64{"orders": {0: 5, 1: 5, 2: 5}})
	vc := &versionCluster{Cluster: c, name: name, v: v, brokers: strings.Join(c.Addrs, ","), state: t.TempDir()}
	vc.live = c.Join(t, "g-live", []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("live-a"))
	c.WaitStable(t, "g-live", 1, 3)
	return vc
}

// olderThan reports whether the release is older than Kafka release
// ("2.8"); the newest is older than none.
func (c *versionCluster) olderThan(release string) bool {
	if c.v == nil {
		return false
	}
	return compareReleases(c.name, release) < 0
}

func compareReleases(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(as), len(bs)) {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// lacks reports whether the cluster's brokers lack f, as they advertise
// it, and checks that the support table says the same: f's first Kafka
// release is newer than this one exactly when the brokers lack it.
func (c *versionCluster) lacks(t *testing.T, f kafka.Feature) bool {
	t.Helper()
	if c.vs == nil {
		vs, err := c.Client(t).BrokerVersions(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		c.vs = vs
	}
	lacks := !f.SupportedBy(c.vs)
	if lacks != c.olderThan(f.Kafka()) {
		t.Errorf("Kafka %s brokers lack %s (%s): %v, but the support table says it needs Kafka %s", c.name, f.ID, f.Request(), lacks, f.Kafka())
	}
	return lacks
}

// placeholder is name padded with dots to the width of what it stands
// for, so that tables keep their alignment.
func placeholder(name, of string) string {
	if len(of) <= len(name) {
		return name
	}
	return name + strings.Repeat(".", len(of)-len(name))
}

// memberWidth and hostWidth are the widths of kgo's member ids
// ("live-a-" and 32 hex digits) and of 127.0.0.1 with a five-digit port.
var (
	memberPH = placeholder("MEMBER", "live-a-0123456789abcdef0123456789abcdef")
	hostPH   = placeholder("HOST", "127.0.0.1:12345")
)

var (
	receiptStamp = regexp.MustCompile(`\d{8}T\d{6}\.\d{3}Z`)
	recordStamp  = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`)
)

// kg runs kgroups on the cluster and puts placeholders where a run's
// values differ: BOOT for the brokers, ADDRn for each broker, MEMBER and
// HOST for the members of g-live (and g-static), STATE for the state
// folder, TS for a receipt's time stamp.
func (c *versionCluster) kg(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", c.state)
	code, stdout, stderr := kg(t, append([]string{"-b", c.brokers}, args...)...)
	return code, c.norm(stdout), c.norm(stderr)
}

func (c *versionCluster) norm(s string) string {
	r := []string{c.brokers, "BOOT", c.state, "STATE"}
	for _, g := range []string{"g-live", "g-static"} {
		if gi := c.GroupInfo(g); gi != nil {
			for _, m := range gi.Members {
				r = append(r, m.MemberID, placeholder("MEMBER", m.MemberID), m.ClientHost, placeholder("HOST", m.ClientHost))
			}
		}
	}
	for i, a := range c.Addrs {
		r = append(r, a, placeholder("ADDR"+strconv.Itoa(i), a))
	}
	s = receiptStamp.ReplaceAllString(strings.NewReplacer(r...).Replace(s), "TS")
	return recordStamp.ReplaceAllString(s, "TIME")
}

// receipts lists the receipts written so far.
func (c *versionCluster) receipts(t *testing.T) []string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(c.state, "kgroups", "receipts"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, receiptStamp.ReplaceAllString(e.Name(), "TS"))
	}
	return out
}

func (c *versionCluster) committed(t *testing.T, group string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	got, err := c.Admin().FetchOffsets(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	got.Each(func(o kadm.OffsetResponse) {
		parts = append(parts, o.Topic+"/"+strconv.Itoa(int(o.Partition))+"="+strconv.FormatInt(o.At, 10))
	})
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// TestVersionMatrix runs every command against kfake advertising each
// release in matrixVersions, one cluster per release shared by its
// subtests, reads before writes. The data is the same everywhere, so
// every read's output is the same on every release; what old brokers
// cannot do is said in a note, and writes they cannot take are refused
// before anything is sent.
func TestVersionMatrix(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, mv := range matrixVersions {
		t.Run(mv.name, func(t *testing.T) {
			var v *kversion.Versions
			if mv.v != nil {
				v = mv.v()
			}
			c := startVersionCluster(t, mv.name, v)
			t.Run("support table", func(t *testing.T) {
				for _, f := range kafka.Features() {
					c.lacks(t, f)
				}
			})
			matrixReads(t, c)
			matrixWrites(t, c)
		})
	}
}

func matrixReads(t *testing.T, c *versionCluster) {
	t.Helper()
	t.Run("list", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "list")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, lines(
			"GROUP   TYPE     STATE   ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR",
			"g-idle  classic  Empty   -               0       1           3    8            "+strconv.Itoa(int(c.CoordinatorFor("g-idle"))),
			"g-live  classic  Stable  range           1       1           3   19            "+strconv.Itoa(int(c.CoordinatorFor("g-live"))),
		))
	})
	t.Run("describe", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", "--all-groups")
		expectRun(t, code, stderr, 0, "Consumer group 'g-idle' has no active members.\n")
		expectText(t, "stdout", stdout, lines(
			"GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  LAST-STABLE-OFFSET  LSO-LAG",
			"g-idle  orders          0               3              11    8  -            -     -                          10        7",
			"g-idle  orders          1              11              11    0  -            -     -                           -        -",
			"g-idle  orders          2              12              12    0  -            -     -                           -        -",
			"",
			"GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID                              HOST             CLIENT-ID  LAST-STABLE-OFFSET  LSO-LAG",
			"g-live  orders          0               5              11    6  "+memberPH+"  "+hostPH+"  live-a                     10        5",
			"g-live  orders          1               5              11    6  "+memberPH+"  "+hostPH+"  live-a                      -        -",
			"g-live  orders          2               5              12    7  "+memberPH+"  "+hostPH+"  live-a                      -        -",
		))
	})
	t.Run("describe members", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "describe", "g-live", "--members")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, lines(
			"GROUP   CONSUMER-ID                              GROUP-INSTANCE-ID  HOST             CLIENT-ID  #PARTITIONS",
			"g-live  "+memberPH+"  -                  "+hostPH+"  live-a               3",
		))
	})
	t.Run("describe state", func(t *testing.T) {
		// live-a is a chosen client id: the leader is told by the
		// metadata franz-go's range member sends, on every release.
		code, stdout, stderr := c.kg(t, "describe", "g-live", "--state")
		expectRun(t, code, stderr, 0, "")
		id := c.CoordinatorFor("g-live")
		expectText(t, "stdout", stdout, lines(
			"GROUP   COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE   #MEMBERS  LEADER",
			"g-live  "+c.norm(c.Addrs[id])+" ("+strconv.Itoa(int(id))+")  range                Stable         1  Java/franz-go",
		))
	})
	t.Run("health", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "health", "g-idle", "g-live", "--window", "300ms", "--interval", "100ms", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		// g-live's member committed once, before kgroups started, and
		// stands: with no rhythm seen, a short window cannot tell a
		// consumer that commits rarely from a stuck one, and says so.
		expectText(t, "health", healthSummary(t, stdout), lines(
			"g-idle ERR STOP lag 8: orders/0 STOP 3/11 lag 8, orders/1 OK 11/11 lag 0, orders/2 OK 12/12 lag 0",
			"g-live JUDGING lag 19: orders/0 OK 5/11 lag 6, orders/1 OK 5/11 lag 6, orders/2 OK 5/12 lag 7",
		))
		var doc healthJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Groups) != 2 {
			t.Fatalf("health -o json: %v\n%s", err, stdout)
		}
		// STALL comes once its commit has stood three ceilings
		// (lag.UnseenRhythms), 15m.
		if j := doc.Groups[1].Judging; j == nil || !strings.Contains(j.Reason, "no rhythm seen yet: STALL after 15m unless it commits") {
			t.Errorf("g-live judging %+v, want it waiting for a rhythm", j)
		}
	})
	t.Run("diagnose", func(t *testing.T) {
		// Kafka 2.8 names the producer; 3.0 its transaction too.
		var note, notes string
		addr := c.norm(c.Addrs[0])
		next := func(string) string {
			return "kafka-transactions.sh --bootstrap-server " + addr + " describe --transactional-id matrix-txn"
		}
		switch {
		case c.lacks(t, kafka.FeatureProducers):
			note = "producers behind a trailing stable offset not named: the brokers are older than Kafka 2.8 (DescribeProducers)"
			notes = "DescribeProducers v0 (Kafka 2.8) unsupported: " + note + "\n"
			next = func(group string) string { return "kgroups -b BOOT peek " + group + " --topic orders:0 --offset 10" }
		case c.lacks(t, kafka.FeatureTransactions):
			note = "transactions not checked: the brokers are older than Kafka 3.0 (ListTransactions)"
			notes = "ListTransactions v0 (Kafka 3.0) unsupported: " + note + "\n"
			next = func(string) string {
				return "kafka-transactions.sh --bootstrap-server " + addr + " describe-producers --topic orders --partition 0"
			}
		}
		code, stdout, stderr := c.kg(t, "diagnose", "g-idle", "g-live", "--window", "300ms", "--interval", "100ms", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		findings, gotNotes := diagnoseSummary(t, stdout)
		// g-live is JUDGING (see health): not a member that stopped
		// committing yet.
		expectText(t, "findings", findings, lines(
			"g-idle WARN stuck-behind-open-transaction orders:0 next: "+next("g-idle"),
			"g-live WARN stuck-behind-open-transaction orders:0 next: "+next("g-live"),
		))
		expectText(t, "notes", gotNotes, notes)
		code, _, stderr = c.kg(t, "diagnose", "g-idle", "g-live", "--window", "300ms", "--interval", "100ms")
		if note != "" {
			note = "note: " + note + "\n"
		}
		expectRun(t, code, stderr, 0, note)
		// The exit code comes from the findings, not from what could not
		// be read.
		code, _, stderr = c.kg(t, "diagnose", "g-live", "--window", "300ms", "--interval", "100ms", "--fail-on", "WARN")
		expectRun(t, code, stderr, 3, note+"kgroups: 1 group with findings at or above WARN: g-live (WARN)\n")
	})
	t.Run("peek", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "peek", "g-idle", "--topic", "orders:0", "-n", "2")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, lines(
			"TOPIC orders  PARTITION 0  COMMITTED 3  LOG-START 0  LOG-END 11  LAST-STABLE 10",
			"",
			"offset       3",
			"timestamp    TIME (CreateTime)",
			"key          (null)",
			"headers      -",
			"size         2 bytes",
			"value        text, 2 bytes",
			"  v3",
			"",
			"offset       4",
			"timestamp    TIME (CreateTime)",
			"key          (null)",
			"headers      -",
			"size         2 bytes",
			"value        text, 2 bytes",
			"  v4",
		))
	})
	t.Run("simulate", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "simulate", "g-live", "--join", "1", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "moved", simulateSummary(t, stdout), "range 1, roundrobin 1, sticky 1, cooperative-sticky 1")
	})
	t.Run("tui", func(t *testing.T) { matrixTUI(t, c) })
}

func matrixWrites(t *testing.T, c *versionCluster) {
	t.Helper()
	t.Run("reset", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "reset", "g-idle", "--to-earliest", "--topic", "orders")
		expectRun(t, code, stderr, 0, lines("3 of 3 partitions change; 26 records will be consumed again, 0 skipped.", "Dry run: nothing was changed. Add --execute to apply."))
		expectText(t, "stdout", stdout, lines(
			"GROUP   TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE",
			"g-idle  orders          0           0               3          0       11     -3  -",
			"g-idle  orders          1           0              11          0       11    -11  -",
			"g-idle  orders          2           0              12          0       12    -12  -",
		))
		// ListOffsets by timestamp: before every record is the log start,
		// after every record the log end.
		code, stdout, stderr = c.kg(t, "reset", "g-idle", "--to-datetime", "2020-01-01T00:00:00.000", "--topic", "orders")
		expectRun(t, code, stderr, 0, lines("3 of 3 partitions change; 26 records will be consumed again, 0 skipped.", "Dry run: nothing was changed. Add --execute to apply."))
		expectText(t, "to-datetime before the records", stdout, lines(
			"GROUP   TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE",
			"g-idle  orders          0           0               3          0       11     -3  -",
			"g-idle  orders          1           0              11          0       11    -11  -",
			"g-idle  orders          2           0              12          0       12    -12  -",
		))
		code, stdout, stderr = c.kg(t, "reset", "g-idle", "--to-datetime", "2999-01-01T00:00:00.000", "--topic", "orders:0")
		expectRun(t, code, stderr, 0, lines("1 of 1 partition change; 0 records will be consumed again, 8 skipped.", "Dry run: nothing was changed. Add --execute to apply."))
		expectText(t, "to-datetime after the records", stdout, lines(
			"GROUP   TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE",
			"g-idle  orders          0          11               3          0       11     +8  no record at or after TIME: log end",
		))
		code, stdout, stderr = c.kg(t, "reset", "g-idle", "--to-offset", "4", "--topic", "orders:0", "--execute")
		rc := "STATE/kgroups/receipts/TS-reset-g-idle.json"
		expectRun(t, code, stderr, 0, lines("1 of 1 partition change; 0 records will be consumed again, 1 skipped.", "Receipt: "+rc, "To undo: kgroups -b BOOT undo "+rc+" --execute"))
		expectText(t, "stdout", stdout, lines(
			"GROUP   TOPIC   PARTITION  NEW-OFFSET  PREVIOUS-OFFSET  COMMITTED-NOW  STATUS",
			"g-idle  orders          0           4                3              4  ok",
		))
		expectText(t, "committed", c.committed(t, "g-idle"), "orders/0=4 orders/1=11 orders/2=12")
		c.undoLast(t)
		expectText(t, "committed after undo", c.committed(t, "g-idle"), "orders/0=3 orders/1=11 orders/2=12")
	})
	t.Run("delete-offsets", func(t *testing.T) {
		before := c.receipts(t)
		code, stdout, stderr := c.kg(t, "delete-offsets", "g-idle", "--topic", "orders:1")
		plan := lines(
			"GROUP   TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE",
			"g-idle  orders          1           -              11          -        -      -  -",
		)
		expectText(t, "dry run", stdout, plan)
		refusal := "offsets not deleted: the brokers are older than Kafka 2.4 (OffsetDelete)"
		if c.lacks(t, kafka.FeatureOffsetDelete) {
			expectRun(t, code, stderr, 0, lines("1 committed offset will be deleted.", "Note: --execute would be refused now: "+refusal, "Dry run: nothing was changed. Add --execute to apply."))
			code, stdout, stderr = c.kg(t, "delete-offsets", "g-idle", "--topic", "orders:1", "--execute")
			expectRun(t, code, stderr, 1, "kgroups: "+refusal+"\n")
			expectText(t, "stdout", stdout, "")
			expectText(t, "receipts", strings.Join(c.receipts(t), " "), strings.Join(before, " "))
			expectText(t, "committed", c.committed(t, "g-idle"), "orders/0=3 orders/1=11 orders/2=12")
			return
		}
		expectRun(t, code, stderr, 0, lines("1 committed offset will be deleted.", "Dry run: nothing was changed. Add --execute to apply."))
		code, stdout, stderr = c.kg(t, "delete-offsets", "g-idle", "--topic", "orders:1", "--execute")
		rc := "STATE/kgroups/receipts/TS-delete-offsets-g-idle.json"
		expectRun(t, code, stderr, 0, lines("1 committed offset will be deleted.", "Receipt: "+rc, "To undo: kgroups -b BOOT undo "+rc+" --execute"))
		expectText(t, "stdout", stdout, lines(
			"GROUP   TOPIC   PARTITION  NEW-OFFSET  PREVIOUS-OFFSET  COMMITTED-NOW  STATUS",
			"g-idle  orders          1           -               11              -  ok",
		))
		expectText(t, "committed", c.committed(t, "g-idle"), "orders/0=3 orders/2=12")
		c.undoLast(t)
		expectText(t, "committed after undo", c.committed(t, "g-idle"), "orders/0=3 orders/1=11 orders/2=12")
	})
	t.Run("delete", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "delete", "g-idle")
		expectRun(t, code, stderr, 0, "Dry run: nothing was deleted. Add --execute to delete.\n")
		expectText(t, "stdout", stdout, lines(
			"GROUP   STATE  #MEMBERS  #COMMITTED  CAN-DELETE",
			"g-idle  Empty         0           3  yes",
		))
	})
	t.Run("rebalance", func(t *testing.T) {
		before := c.receipts(t)
		old := c.live.MemberID()
		code, stdout, stderr := c.kg(t, "rebalance", "g-live", "--all", "--execute")
		plan := lines(
			"Group g-live (classic, Stable, assignor range, 1 member): remove 1 member",
			"",
			"MEMBER-ID                                INSTANCE-ID  CLIENT-ID  HOST             #PARTITIONS  REMOVE-BY",
			memberPH+"  -            live-a     "+hostPH+"            3  member-id",
			"",
			"What happens:",
			"  - The coordinator removes each member at once and rebalances the group: every remaining member rejoins.",
			"  - With the eager range assignor, every member stops consuming until the rebalance completes.",
			"  - A removed dynamic member learns it was removed at its next heartbeat and rejoins with a new member id; if its process is gone, its partitions go to the other members.",
			`Reason sent to the broker: "removed by kgroups"`,
		)
		if c.lacks(t, kafka.FeatureRemoveMembers) {
			expectRun(t, code, stderr, 1, "kgroups: members not removed: the brokers are older than Kafka 2.4 (LeaveGroup v3): nothing was sent and no receipt was written\n")
			expectText(t, "stdout", stdout, plan)
			expectText(t, "receipts", strings.Join(c.receipts(t), " "), strings.Join(before, " "))
			if now := c.live.MemberID(); now != old {
				t.Errorf("the member's id changed from %s to %s: it was removed", old, now)
			}
			return
		}
		expectRun(t, code, stderr, 0, "")
		// The removed member rejoined with a new id: the old one is no
		// longer the group's, so put its placeholder in by hand.
		stdout = strings.ReplaceAll(stdout, old, memberPH)
		if !strings.HasPrefix(stdout, plan+"\nReceipt: STATE/kgroups/receipts/TS-remove-members-g-live.json\n") ||
			!strings.Contains(stdout, "\n"+memberPH+"  -            removed\n") {
			t.Errorf("stdout:\n%s", stdout)
		}
		expectText(t, "receipts", strings.Join(c.receipts(t), " "), strings.Join(append(before, "TS-remove-members-g-live.json"), " "))
	})
}

// undoLast undoes the newest receipt.
func (c *versionCluster) undoLast(t *testing.T) {
	t.Helper()
	dir := filepath.Join(c.state, "kgroups", "receipts")
	es, err := os.ReadDir(dir)
	if err != nil || len(es) == 0 {
		t.Fatalf("no receipt to undo: %v", err)
	}
	code, _, stderr := c.kg(t, "undo", filepath.Join(dir, es[len(es)-1].Name()), "--execute")
	if code != 0 {
		t.Fatalf("undo: exit %d, stderr %s", code, stderr)
	}
}

// healthSummary is health -o json's verdicts and offsets, one line per
// group; time lags and rates depend on the clock and are left out.
func healthSummary(t *testing.T, stdout string) string {
	t.Helper()
	var doc struct {
		Groups []struct {
			Group      string `json:"group"`
			Verdict    string `json:"verdict"`
			TotalLag   int64  `json:"totalLag"`
			Partitions []struct {
				Topic     string `json:"topic"`
				Partition int32  `json:"partition"`
				Status    string `json:"status"`
				Committed int64  `json:"committedOffset"`
				LogEnd    int64  `json:"logEndOffset"`
				Lag       int64  `json:"lag"`
			} `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("health -o json: %v\n%s", err, stdout)
	}
	var b strings.Builder
	for _, g := range doc.Groups {
		fmt.Fprintf(&b, "%s %s lag %d:", g.Group, g.Verdict, g.TotalLag)
		for i, p := range g.Partitions {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s/%d %s %d/%d lag %d", p.Topic, p.Partition, p.Status, p.Committed, p.LogEnd, p.Lag)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// diagnoseSummary is diagnose -o json's findings (group, severity, id,
// where) and its notes, one line each.
func diagnoseSummary(t *testing.T, stdout string) (findings, notes string) {
	t.Helper()
	var doc struct {
		Groups []struct {
			Group    string `json:"group"`
			Findings []struct {
				ID        string `json:"id"`
				Severity  string `json:"severity"`
				Topic     *string
				Partition *int32
				Next      string `json:"next"`
			} `json:"findings"`
		} `json:"groups"`
		Notes []struct {
			Feature    string `json:"feature"`
			API        string `json:"api"`
			MinVersion int16  `json:"minVersion"`
			MinKafka   string `json:"minKafka"`
			Reason     string `json:"reason"`
			Message    string `json:"message"`
		} `json:"notes"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("diagnose -o json: %v\n%s", err, stdout)
	}
	var f, n strings.Builder
	for _, g := range doc.Groups {
		for _, x := range g.Findings {
			fmt.Fprintf(&f, "%s %s %s", g.Group, x.Severity, x.ID)
			if x.Topic != nil && x.Partition != nil {
				fmt.Fprintf(&f, " %s:%d", *x.Topic, *x.Partition)
			}
			if x.ID == "stuck-behind-open-transaction" {
				f.WriteString(" next: " + x.Next)
			}
			f.WriteByte('\n')
		}
	}
	for _, x := range doc.Notes {
		fmt.Fprintf(&n, "%s v%d (Kafka %s) %s: %s\n", x.API, x.MinVersion, x.MinKafka, x.Reason, x.Message)
	}
	return f.String(), n.String()
}

// simulateSummary is how many partitions each assignor moves.
func simulateSummary(t *testing.T, stdout string) string {
	t.Helper()
	var doc struct {
		Assignors []struct {
			Assignor string `json:"assignor"`
			Moved    int    `json:"moved"`
		} `json:"assignors"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("simulate -o json: %v\n%s", err, stdout)
	}
	var parts []string
	for _, a := range doc.Assignors {
		parts = append(parts, fmt.Sprintf("%s %d", a.Assignor, a.Moved))
	}
	return strings.Join(parts, ", ")
}

// matrixTUI opens the UI on g-live, goes to its Diagnosis tab and quits:
// on brokers that cannot name the producer or the transaction the tab
// says so, never a raw protocol error.
func matrixTUI(t *testing.T, c *versionCluster) {
	t.Helper()
	t.Setenv("LC_ALL", "C")
	in, keys := io.Pipe()
	var out, errOut screenBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"-b", c.brokers, "tui", "--group", "g-live"}, in, &out, &errOut)
	}()
	waitScreen(t, &out, "g-live | Stable | classic | assignor range")
	waitScreen(t, &out, "> orders    0         5      11   6")
	// Diagnosis is the last tab: one Shift+Tab from the first reaches
	// it, however fast the UI draws (Tabs typed faster than it draws
	// could pass it by) and whatever tabs come before it.
	if _, err := keys.Write([]byte("\x1b[Z")); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, &out, "[Diagnosis]")
	switch {
	case c.lacks(t, kafka.FeatureProducers):
		waitScreen(t, &out, "note: producers behind a trailing stable offset not named: the")
	case c.lacks(t, kafka.FeatureTransactions):
		waitScreen(t, &out, "note: transactions not checked: the brokers are older than Kafka 3.0")
	default:
		waitScreen(t, &out, "from the polls and reads")
	}
	// q goes back to the groups screen, which lists both groups; q again
	// quits.
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, &out, "2 groups")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
	case <-time.After(kafkatest.WaitTimeout):
		t.Fatal("q q did not end kgroups tui")
	}
	if s := out.String(); strings.Contains(s, "too old") || strings.Contains(s, "read failed") {
		t.Errorf("the UI showed a raw protocol error")
	}
}
