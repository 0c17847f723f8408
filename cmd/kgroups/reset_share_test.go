package main

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// shareCluster adds to the reset cluster a share group sg on topic jobs
// (jobs/0: 10 records, jobs/1: 6) with one live kgo share member that has
// acknowledged every record: start offsets jobs/0 at 10, jobs/1 at 6.
type shareCluster struct {
	*resetCluster
	stop func()

	mu   sync.Mutex
	sent map[int16]int
}

func startShareResetCluster(t *testing.T) *shareCluster {
	t.Helper()
	sc := &shareCluster{resetCluster: startResetCluster(t), sent: make(map[int16]int)}
	sc.CreateTopic(t, "jobs", 2)
	sc.Produce(t, "jobs", 0, 10, resetBase)
	sc.Produce(t, "jobs", 1, 6, resetBase)
	sc.SetGroupConfigs("sg", map[string]string{"share.auto.offset.reset": "earliest"})
	cl, err := kgo.NewClient(kgo.SeedBrokers(sc.Addrs...), kgo.ShareGroup("sg"), kgo.ConsumeTopics("jobs"), kgo.ClientID("share-app"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	var once sync.Once
	sc.stop = func() {
		once.Do(func() {
			cancel()
			<-done
			cl.Close()
		})
	}
	t.Cleanup(sc.stop)
	sc.assertStarts(t, map[string]int64{"jobs/0": 10, "jobs/1": 6}, true)
	for _, k := range []kmsg.Key{kmsg.AlterShareGroupOffsets, kmsg.DeleteShareGroupOffsets, kmsg.OffsetCommit, kmsg.OffsetDelete, kmsg.DeleteGroups, kmsg.LeaveGroup} {
		k := k.Int16()
		sc.ControlKey(k, func(kmsg.Request) (kmsg.Response, error, bool) {
			sc.KeepControl()
			sc.mu.Lock()
			sc.sent[k]++
			sc.mu.Unlock()
			return nil, nil, false
		})
	}
	return sc
}

func (sc *shareCluster) count(k kmsg.Key) int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.sent[k.Int16()]
}

func (sc *shareCluster) starts(t *testing.T) map[string]int64 {
	t.Helper()
	resp, err := sc.Admin().DescribeShareGroupOffsets(context.Background(), "sg")
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]int64)
	for _, ps := range resp["sg"].Offsets {
		for _, o := range ps {
			if o.StartOffset >= 0 {
				out[o.Topic+"/"+strconv.Itoa(int(o.Partition))] = o.StartOffset
			}
		}
	}
	return out
}

func (sc *shareCluster) assertStarts(t *testing.T, want map[string]int64, wait bool) {
	t.Helper()
	if wait {
		kafkatest.Eventually(t, "start offsets", func() bool { return reflect.DeepEqual(sc.starts(t), want) })
		return
	}
	if got := sc.starts(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("start offsets = %v, want %v", got, want)
	}
}

func (sc *shareCluster) stopMember(t *testing.T) {
	t.Helper()
	sc.stop()
	kafkatest.Eventually(t, "sg is Empty", func() bool {
		ds, err := sc.Admin().DescribeShareGroups(context.Background(), "sg")
		return err == nil && ds["sg"].GroupState == kafka.StateEmpty
	})
}

func TestShareResetCLI(t *testing.T) {
	sc := startShareResetCluster(t)

	// Dry run: the plan in start offsets; nothing sent.
	code, stdout, stderr := sc.kg(t, "reset", "sg", "--to-earliest", "--all-topics")
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	assertOutput(t, "stdout", stdout, `GROUP  TOPIC  PARTITION  NEW-OFFSET  START-OFFSET  LOG-START  LOG-END  DELTA  NOTE
sg     jobs           0           0            10          0       10    -10  -
sg     jobs           1           0             6          0        6     -6  -
`)
	for _, w := range []string{"2 of 2 partitions change; 16 records will be consumed again, 0 skipped.",
		`Note: --execute would be refused now: cannot reset the offsets of share group "sg": it is Stable with 1 live member:`,
		"Dry run: nothing was changed."} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
	code, stdout, _ = sc.kg(t, "reset", "sg", "--to-earliest", "--all-topics", "-o", "json")
	var doc struct {
		GroupType  string `json:"groupType"`
		Partitions []struct {
			CurrentOffset int64 `json:"currentOffset"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || doc.GroupType != "share" || len(doc.Partitions) != 2 || doc.Partitions[0].CurrentOffset != 10 {
		t.Fatalf("json: exit %d, %v, %+v\n%s", code, err, doc, stdout)
	}

	// --execute while a member is live: exit 1, nothing sent, no receipt.
	code, stdout, stderr = sc.kg(t, "reset", "sg", "--to-earliest", "--all-topics", "--execute")
	if code != 1 || stdout != "" || !strings.Contains(stderr, `cannot reset the offsets of share group "sg": it is Stable with 1 live member:`) {
		t.Fatalf("execute on a live group: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// A scenario without meaning for a share group: exit 1, nothing sent.
	for _, args := range [][]string{{"--shift-by", "-2"}, {"--to-current"}} {
		code, _, stderr = sc.kg(t, append([]string{"reset", "sg", "--all-topics", "--execute"}, args...)...)
		if code != 1 || !strings.Contains(stderr, `group "sg" is a share group: `+args[0]+" does not apply") || !strings.Contains(stderr, "Share groups accept --to-earliest, --to-latest, --to-offset, --to-datetime, --by-duration, --from-file.") {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
	}
	// rebalance and simulate work on classic and consumer groups only.
	code, _, stderr = sc.kg(t, "rebalance", "sg", "--all", "--execute")
	if code != 1 || !strings.Contains(stderr, `group "sg" is a share group: rebalance is not available for share groups (`) {
		t.Fatalf("rebalance on a share group: exit %d: %s", code, stderr)
	}
	code, _, stderr = sc.kg(t, "simulate", "sg", "--join", "1")
	if code != 1 || !strings.Contains(stderr, `group "sg" is a share group: simulate is not available for share groups (`) {
		t.Fatalf("simulate on a share group: exit %d: %s", code, stderr)
	}
	if n := sc.count(kmsg.AlterShareGroupOffsets) + sc.count(kmsg.OffsetCommit) + sc.count(kmsg.LeaveGroup); n != 0 {
		t.Fatalf("refusals sent %d requests", n)
	}
	if n := sc.receiptCount(t); n != 0 {
		t.Fatalf("refusals wrote %d receipts", n)
	}

	// Empty: applied with AlterShareGroupOffsets, verified, undone.
	sc.stopMember(t)
	code, stdout, stderr = sc.kg(t, "reset", "sg", "--to-datetime", "2024-01-01T00:00:03Z", "--topic", "jobs", "--execute")
	if code != 0 {
		t.Fatalf("execute: exit %d: %s", code, stderr)
	}
	assertOutput(t, "result", stdout, `GROUP  TOPIC  PARTITION  NEW-OFFSET  PREVIOUS-START  START-NOW  STATUS
sg     jobs           0           3              10          3  ok
sg     jobs           1           3               6          3  ok
`)
	sc.assertStarts(t, map[string]int64{"jobs/0": 3, "jobs/1": 3}, false)
	if n, m := sc.count(kmsg.AlterShareGroupOffsets), sc.count(kmsg.OffsetCommit); n != 1 || m != 0 {
		t.Fatalf("AlterShareGroupOffsets %d, OffsetCommit %d; want 1 and 0", n, m)
	}
	if code, _, stderr := sc.kg(t, "undo", receiptPath(t, stderr), "--execute"); code != 0 {
		t.Fatalf("undo: exit %d: %s", code, stderr)
	}
	sc.assertStarts(t, map[string]int64{"jobs/0": 10, "jobs/1": 6}, false)
}

func TestShareDeleteCLI(t *testing.T) {
	sc := startShareResetCluster(t)
	code, _, stderr := sc.kg(t, "delete-offsets", "sg", "--topic", "jobs:1")
	if code != 1 || !strings.Contains(stderr, `group "sg" is a share group, whose start offsets are deleted for a whole topic: give --topic jobs without partitions (not jobs:1)`) {
		t.Fatalf("delete-offsets jobs:1: exit %d: %s", code, stderr)
	}
	code, _, stderr = sc.kg(t, "delete-offsets", "sg", "--topic", "jobs", "--execute")
	if code != 1 || !strings.Contains(stderr, `cannot delete the offsets of share group "sg": it is Stable`) {
		t.Fatalf("delete-offsets on a live group: exit %d: %s", code, stderr)
	}
	code, _, stderr = sc.kg(t, "delete", "sg", "--execute")
	if code != 1 || !strings.Contains(stderr, `cannot delete share group "sg": it is Stable`) {
		t.Fatalf("delete of a live group: exit %d: %s", code, stderr)
	}
	if n := sc.count(kmsg.DeleteShareGroupOffsets) + sc.count(kmsg.DeleteGroups) + sc.count(kmsg.OffsetDelete); n != 0 {
		t.Fatalf("refusals sent %d requests", n)
	}

	sc.stopMember(t)
	code, stdout, stderr := sc.kg(t, "delete-offsets", "sg", "--topic", "jobs", "--execute")
	if code != 0 || !strings.Contains(stderr, "2 start offsets will be deleted.") || !strings.Contains(stdout, "sg     jobs           0           -              10          -  ok") {
		t.Fatalf("delete-offsets: exit %d\n%s\n%s", code, stdout, stderr)
	}
	sc.assertStarts(t, map[string]int64{}, false)
	if code, _, stderr := sc.kg(t, "undo", receiptPath(t, stderr), "--execute"); code != 0 {
		t.Fatalf("undo delete-offsets: exit %d: %s", code, stderr)
	}
	sc.assertStarts(t, map[string]int64{"jobs/0": 10, "jobs/1": 6}, false)

	code, stdout, stderr = sc.kg(t, "delete", "sg", "--execute")
	if code != 0 || !strings.HasPrefix(stdout, `Deleted group "sg"; its 2 start offset(s) are in the receipt `) {
		t.Fatalf("delete: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := sc.count(kmsg.DeleteGroups); n != 1 {
		t.Fatalf("DeleteGroups sent %d times", n)
	}
	path := strings.TrimSpace(strings.TrimPrefix(stdout, `Deleted group "sg"; its 2 start offset(s) are in the receipt `))
	if code, _, stderr := sc.kg(t, "undo", path, "--execute"); code != 0 {
		t.Fatalf("undo delete: exit %d: %s", code, stderr)
	}
	sc.assertStarts(t, map[string]int64{"jobs/0": 10, "jobs/1": 6}, false)
	if n := sc.count(kmsg.OffsetCommit); n != 0 {
		t.Fatalf("OffsetCommit sent %d times to a share group", n)
	}
}
