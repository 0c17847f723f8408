//go:build realkafka

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// writesBase is the timestamp of the first record of the writes tests:
// record i of a partition is writesBase + i minutes.
var writesBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// writesCluster is a real Kafka cluster with topic w (3 partitions) whose
// records have known timestamps: w/0 holds offsets 2..9 (0 and 1 deleted,
// so its log starts at 2), w/1 offsets 0..5, w/2 nothing.
func writesCluster(t *testing.T) (*realkafka.Cluster, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	return c, seedWrites(t, c)
}

// seedWrites creates writesCluster's topic w on c and returns its name.
func seedWrites(t *testing.T, c *realkafka.Cluster) string {
	t.Helper()
	topic := c.Name("w")
	c.CreateTopic(t, topic, 3)
	for i := range 10 {
		c.Produce(t, topic, 0, 1, writesBase.Add(time.Duration(i)*time.Minute))
	}
	for i := range 6 {
		c.Produce(t, topic, 1, 1, writesBase.Add(time.Duration(i)*time.Minute))
	}
	ctx, cancel := context.WithTimeout(context.Background(), realkafka.Wait)
	defer cancel()
	var del kadm.Offsets
	del.Add(kadm.Offset{Topic: topic, Partition: 0, At: 2, LeaderEpoch: -1})
	resp, err := c.Admin().DeleteRecords(ctx, del)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("delete records: %v", err)
	}
	return topic
}

// committed is a group's committed offsets as kafka-consumer-groups.sh
// --describe reports them: "topic/partition" -> CURRENT-OFFSET.
func committed(t *testing.T, c *realkafka.Cluster, group string) map[string]string {
	t.Helper()
	return committedBy(t, c, group, false)
}

// committedBy is committed read by the brokers' own release of the tool
// when own is set.
func committedBy(t *testing.T, c *realkafka.Cluster, group string, own bool) map[string]string {
	t.Helper()
	tool, class := c.Tool, realkafka.ConsumerGroupCommand
	if own {
		tool, class = c.ReleaseTool, realkafka.ReleaseConsumerGroups
	}
	out, errOut, code := tool(t, class, "--bootstrap-server", c.Bootstrap, "--describe", "--group", group)
	if code != 0 {
		t.Fatalf("kafka-consumer-groups.sh --describe %s: exit %d\n%s%s", group, code, out, errOut)
	}
	rows, err := realkafka.KafkaRows(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		topic, _ := r.Get("TOPIC")
		p, _ := r.Get("PARTITION")
		off, _ := r.Get("CURRENT-OFFSET")
		got[topic+"/"+p] = off
	}
	return got
}

func expectOffsets(t *testing.T, what string, got map[string]string, want map[string]int64) {
	t.Helper()
	w := map[string]string{}
	for k, v := range want {
		w[k] = strconv.FormatInt(v, 10)
	}
	if fmt.Sprint(got) != fmt.Sprint(w) {
		t.Errorf("%s: kafka-consumer-groups.sh reads %v, want %v", what, got, w)
	}
}

// resetCase is one reset scenario on writesCluster's topic, from the
// committed offsets 5, 3 and 0, and every committed offset after it.
type resetCase struct {
	name     string
	scenario []string
	want     map[string]int64
}

// realResetBase is what each resetCase starts from.
var realResetBase = map[int32]int64{0: 5, 1: 3, 2: 0}

// resetCases are kgroups' reset scenarios on topic (seedWrites' layout).
func resetCases(t *testing.T, topic string) []resetCase {
	t.Helper()
	tp := func(p int) string { return topic + "/" + strconv.Itoa(p) }
	csv := filepath.Join(t.TempDir(), "offsets.csv")
	if err := os.WriteFile(csv, fmt.Appendf(nil, "%s,0,7\n%s,1,2\n", topic, topic), 0o600); err != nil {
		t.Fatal(err)
	}
	at3 := writesBase.Add(3*time.Minute).Format("2006-01-02T15:04:05.000") + "+00:00"
	return []resetCase{
		{"to-earliest", []string{"--to-earliest", "--all-topics"}, map[string]int64{tp(0): 2, tp(1): 0, tp(2): 0}},
		{"to-latest", []string{"--to-latest", "--all-topics"}, map[string]int64{tp(0): 10, tp(1): 6, tp(2): 0}},
		{"to-offset", []string{"--to-offset", "4", "--all-topics"}, map[string]int64{tp(0): 4, tp(1): 4, tp(2): 0}},
		{"to-offset-below-start", []string{"--to-offset", "1", "--topic", topic + ":0"}, map[string]int64{tp(0): 2, tp(1): 3, tp(2): 0}},
		{"from-file", []string{"--from-file", csv}, map[string]int64{tp(0): 7, tp(1): 2, tp(2): 0}},
		{"shift-back", []string{"--shift-by", "-2", "--all-topics"}, map[string]int64{tp(0): 3, tp(1): 1, tp(2): 0}},
		{"shift-forward", []string{"--shift-by", "3", "--topic", topic + ":1"}, map[string]int64{tp(0): 5, tp(1): 6, tp(2): 0}},
		{"to-datetime", []string{"--to-datetime", at3, "--all-topics"}, map[string]int64{tp(0): 3, tp(1): 3, tp(2): 0}},
		{"by-duration-old", []string{"--by-duration", "P1000D", "--all-topics"}, map[string]int64{tp(0): 2, tp(1): 0, tp(2): 0}},
		{"by-duration-recent", []string{"--by-duration", "PT1M", "--all-topics"}, map[string]int64{tp(0): 10, tp(1): 6, tp(2): 0}},
	}
}

// runResetCase commits realResetBase for group, holds kgroups' dry run of tc to
// the Kafka tool's --dry-run (the brokers' own release of it when own is
// set), executes it with kgroups and reads the offsets back with the same
// tool. It returns kgroups' --execute output.
func runResetCase(t *testing.T, c *realkafka.Cluster, group, topic string, tc resetCase, own bool) string {
	t.Helper()
	c.Commit(t, group, map[string]map[int32]int64{topic: realResetBase})
	tool, class := c.Tool, realkafka.ConsumerGroupCommand
	if own {
		tool, class = c.ReleaseTool, realkafka.ReleaseConsumerGroups
	}
	// The dry runs: kgroups' plan is the Kafka tool's.
	kafkaArgs := append([]string{"--bootstrap-server", c.Bootstrap, "--reset-offsets", "--group", group, "--dry-run"}, tc.scenario...)
	out, errOut, code := tool(t, class, kafkaArgs...)
	if code != 0 {
		t.Fatalf("kafka-consumer-groups.sh %v: exit %d\n%s%s", kafkaArgs, code, out, errOut)
	}
	want, err := realkafka.PlanRows(out)
	if err != nil {
		t.Fatal(err)
	}
	kgCode, kgOut, kgErr := kg(t, append([]string{"-b", c.Bootstrap, "reset", group}, tc.scenario...)...)
	if kgCode != 0 {
		t.Fatalf("kgroups reset (dry run) exited %d:\n%s%s", kgCode, kgOut, kgErr)
	}
	got, err := realkafka.Rows(kgOut)
	if err != nil {
		t.Fatal(err)
	}
	sortBy := []string{"TOPIC", "PARTITION"}
	if d := realkafka.Same(realkafka.SortRows(got, sortBy...), realkafka.SortRows(want, sortBy...), exact); d != "" {
		t.Errorf("dry run: kgroups' plan differs from kafka-consumer-groups.sh's:\n%s", d)
	}
	dry, kafkaDry := kgOut, out
	// The write, read back by the Kafka tool.
	kgCode, kgOut, kgErr = kg(t, append([]string{"-b", c.Bootstrap, "reset", group, "--execute"}, tc.scenario...)...)
	if kgCode != 0 {
		t.Fatalf("kgroups reset --execute exited %d:\n%s%s", kgCode, kgOut, kgErr)
	}
	expectOffsets(t, tc.name, committedBy(t, c, group, own), tc.want)
	if t.Failed() {
		t.Logf("kgroups reset (dry run):\n%s\nKafka's dry run:\n%s\nkgroups reset --execute:\n%s%s", dry, kafkaDry, kgOut, kgErr)
	}
	return kgOut
}

// TestRealResets runs every reset scenario of kgroups on a real broker:
// its dry run must plan what kafka-consumer-groups.sh --reset-offsets
// --dry-run plans, and after --execute the Kafka tool's own describe must
// read the offsets planned, exactly.
func TestRealResets(t *testing.T) {
	c, topic := writesCluster(t)
	group := c.Name("wg")
	for _, tc := range resetCases(t, topic) {
		t.Run(tc.name, func(t *testing.T) { runResetCase(t, c, group, topic, tc, false) })
	}
}

// TestRealDeletes deletes a partition's offsets, then the group, with
// kgroups, and reads both back with kafka-consumer-groups.sh.
func TestRealDeletes(t *testing.T) {
	c, topic := writesCluster(t)
	group := c.Name("wd")
	c.Commit(t, group, map[string]map[int32]int64{topic: {0: 5, 1: 3, 2: 0}})
	if code, out, errOut := kg(t, "-b", c.Bootstrap, "delete-offsets", group, "--topic", topic+":1", "--execute"); code != 0 {
		t.Fatalf("kgroups delete-offsets exited %d:\n%s%s", code, out, errOut)
	}
	expectOffsets(t, "after delete-offsets", committed(t, c, group), map[string]int64{topic + "/0": 5, topic + "/2": 0})

	if code, out, errOut := kg(t, "-b", c.Bootstrap, "delete", group, "--execute"); code != 0 {
		t.Fatalf("kgroups delete exited %d:\n%s%s", code, out, errOut)
	}
	list := c.Groups(t, "--list")
	if slices.Contains(strings.Fields(list), group) {
		t.Errorf("kafka-consumer-groups.sh --list still lists %s after kgroups delete:\n%s", group, list)
	}
	out, errOut, _ := c.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", c.Bootstrap, "--describe", "--group", group)
	// "Group X not found." (4.x), "... does not exist." (older tools).
	if !strings.Contains(out+errOut, "not found") && !strings.Contains(out+errOut, "does not exist") {
		t.Errorf("kafka-consumer-groups.sh --describe %s after kgroups delete:\n%s%s", group, out, errOut)
	}
}

// members reads a group's members with kafka-consumer-groups.sh
// --describe --members --verbose, and its group epoch with --state
// --verbose.
func members(t *testing.T, c *realkafka.Cluster, group string) (rows []realkafka.Row, epoch string) {
	t.Helper()
	rows, err := realkafka.KafkaRows(c.Groups(t, "--describe", "--group", group, "--members", "--verbose"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := realkafka.KafkaRows(c.Groups(t, "--describe", "--group", group, "--state", "--verbose"))
	if err != nil || len(st) != 1 {
		t.Fatalf("state of %s: %v %v", group, st, err)
	}
	epoch, _ = st[0].Get("GROUP-EPOCH")
	return rows, epoch
}

func cell(r realkafka.Row, col string) string { v, _ := r.Get(col); return v }

// TestRealMemberRemoval removes a static member of a classic group by its
// instance id, and a KIP-848 member by its member id, with kgroups
// rebalance, and reads the groups back with kafka-consumer-groups.sh: the
// static member is back under a new member id, its sibling untouched; the
// KIP-848 group moved to a new epoch.
func TestRealMemberRemoval(t *testing.T) {
	c, topic := writesCluster(t)
	j := c.StartClients(t)
	static, k848 := c.Name("rm-static"), c.Name("rm-848")
	for _, inst := range []string{"st-a", "st-b"} {
		j.Consumer(t, static+"-"+inst, []string{topic}, classicProps(static, javaRange, "group.instance.id="+inst)...)
	}
	j.Consumer(t, k848+"-1", []string{topic}, kip848Props(k848, "uniform")...)
	j.Consumer(t, k848+"-2", []string{topic}, kip848Props(k848, "uniform")...)
	c.Settled(t, map[string]realkafka.Want{
		static: {Members: 2, Topics: []string{topic}},
		k848:   {Members: 2, Topics: []string{topic}},
	})

	before, _ := members(t, c, static)
	ids := map[string]string{}
	for _, r := range before {
		ids[cell(r, "GROUP-INSTANCE-ID")] = cell(r, "CONSUMER-ID")
	}
	if code, out, errOut := kg(t, "-b", c.Bootstrap, "rebalance", static, "--instance", "st-a", "--execute", "--timeout", "60s"); code != 0 {
		t.Fatalf("kgroups rebalance --instance exited %d:\n%s%s", code, out, errOut)
	}
	c.Settled(t, map[string]realkafka.Want{static: {Members: 2, Topics: []string{topic}}})
	after, _ := members(t, c, static)
	if len(after) != 2 {
		t.Fatalf("after the removal Kafka lists %d members of %s", len(after), static)
	}
	for _, r := range after {
		inst, id := cell(r, "GROUP-INSTANCE-ID"), cell(r, "CONSUMER-ID")
		switch {
		case inst == "st-a" && id == ids["st-a"]:
			t.Errorf("st-a kept member id %s: it was not removed", id)
		case inst == "st-b" && id != ids["st-b"]:
			t.Errorf("st-b changed member id %s -> %s: the wrong member was removed", ids["st-b"], id)
		}
	}

	before, epoch := members(t, c, k848)
	victim := cell(before[0], "CONSUMER-ID")
	code, out, errOut := kg(t, "-b", c.Bootstrap, "rebalance", k848, "--member", victim, "--execute", "--timeout", "60s")
	if code != 0 {
		t.Fatalf("kgroups rebalance --member (KIP-848) exited %d:\n%s%s", code, out, errOut)
	}
	c.Settled(t, map[string]realkafka.Want{k848: {Members: 2, Topics: []string{topic}}})
	after, epochAfter := members(t, c, k848)
	e0, _ := strconv.Atoi(epoch)
	e1, _ := strconv.Atoi(epochAfter)
	if len(after) != 2 || e1 <= e0 {
		t.Errorf("after removing %s from %s: %d members at group epoch %s (was %s); want 2 at a later epoch\n%s%s",
			victim, k848, len(after), epochAfter, epoch, out, errOut)
	}
}
