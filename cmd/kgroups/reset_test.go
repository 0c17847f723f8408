package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// resetBase is the first timestamp of orders/0 and orders/2; record i is at
// resetBase+i seconds.
var resetBase = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// resetCluster is the cluster every reset, undo and delete test starts from:
//
//	orders/0: offsets 0-9,  timestamps 2024-01-01T00:00:00Z + i s
//	orders/1: offsets 0-19, timestamps ten minutes ago + i s
//	orders/2: offsets 0-4,  timestamps 2024-01-01T00:00:00Z + i s
//	group g (Empty): orders/0 at 5, orders/1 at 10, orders/2 no commit
//
// Receipts go to a fresh $XDG_STATE_HOME, and no configuration file or
// KGROUPS_* variable leaks in from the machine.
type resetCluster struct {
	*kafkatest.Cluster
	brokers  string
	receipts string
}

func startResetCluster(t *testing.T) *resetCluster {
	t.Helper()
	isolateConfig(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.Produce(t, "orders", 0, 10, resetBase)
	c.Produce(t, "orders", 1, 20, time.Now().Add(-10*time.Minute))
	c.Produce(t, "orders", 2, 5, resetBase)
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 5, 1: 10}})
	return &resetCluster{Cluster: c, brokers: strings.Join(c.Addrs, ","), receipts: filepath.Join(state, "kgroups", "receipts")}
}

// kg runs kgroups against the cluster.
func (rc *resetCluster) kg(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runKgroups(t, append([]string{"-b", rc.brokers}, args...)...)
}

// commits reads a group's commits straight from the broker, as
// "topic/partition" -> offset.
func (rc *resetCluster) commits(group string) map[string]int64 {
	out := make(map[string]int64)
	gi := rc.GroupInfo(group)
	if gi == nil {
		return out
	}
	for topic, ps := range gi.Commits {
		for p, c := range ps {
			out[topic+"/"+strconv.Itoa(int(p))] = c.Offset
		}
	}
	return out
}

func (rc *resetCluster) assertCommits(t *testing.T, group string, want map[string]int64) {
	t.Helper()
	if got := rc.commits(group); !reflect.DeepEqual(got, want) {
		t.Fatalf("commits of %s = %v, want %v", group, got, want)
	}
}

func assertOutput(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n--- got ---\n%s\n--- want ---\n%s", what, got, want)
	}
}

var initialCommits = map[string]int64{"orders/0": 5, "orders/1": 10}

func (rc *resetCluster) receiptCount(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir(rc.receipts)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

var receiptRE = regexp.MustCompile(`(?m)^Receipt: (.+)$`)

func receiptPath(t *testing.T, stderr string) string {
	t.Helper()
	m := receiptRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no receipt in stderr:\n%s", stderr)
	}
	return m[1]
}

func TestResetDryRun(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertOutput(t, "stdout", stdout, `GROUP  TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE
g      orders          0           0               5          0       10     -5  -
g      orders          1           0              10          0       20    -10  -
g      orders          2           0               -          0        5      -  -
`)
	assertOutput(t, "stderr", stderr, `3 of 3 partitions change; 15 records will be consumed again, 0 skipped; 1 partition had no commit.
Dry run: nothing was changed. Add --execute to apply.
`)
	rc.assertCommits(t, "g", initialCommits)
	if n := rc.receiptCount(t); n != 0 {
		t.Fatalf("a dry run wrote %d receipts", n)
	}
	// kafka-consumer-groups.sh's --dry-run says the same out loud.
	code, again, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders", "--dry-run")
	if code != 0 || again != stdout {
		t.Fatalf("--dry-run: exit %d, stdout %q, stderr %q; want exit 0 and the plan above", code, again, stderr)
	}
}

// TestDryRunAndExecuteRefused: every writing command takes
// kafka-consumer-groups.sh's --dry-run, and refuses it next to --execute
// before connecting (exit 2).
func TestDryRunAndExecuteRefused(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, args := range [][]string{
		{"reset", "g", "--to-earliest", "--all-topics"},
		{"undo", "receipt.json"},
		{"delete", "g"},
		{"delete-offsets", "g", "--topic", "orders"},
		{"rebalance", "g", "--all"},
	} {
		code, stdout, stderr := runKgroups(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, append(args, "--dry-run", "--execute")...)...)
		want := "kgroups: give --dry-run or --execute, not both: without --execute " + args[0] + " is a dry run\nRun 'kgroups " + args[0] + " --help' for usage.\n"
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, stdout, stderr, want)
		}
	}
}

func TestResetScenariosCLI(t *testing.T) {
	rc := startResetCluster(t)
	tests := []struct {
		args []string
		want map[string]int64 // partition -> new offset
	}{
		{[]string{"--to-latest", "--all-topics"}, map[string]int64{"orders/0": 10, "orders/1": 20}},
		{[]string{"--to-current", "--topic", "orders:0,2"}, map[string]int64{"orders/0": 5, "orders/2": 5}},
		{[]string{"--to-offset", "7", "--topic", "orders"}, map[string]int64{"orders/0": 7, "orders/1": 7, "orders/2": 5}},
		{[]string{"--shift-by", "-6", "--all-topics"}, map[string]int64{"orders/0": 0, "orders/1": 4}},
		{[]string{"--shift-by", "+3", "--topic", "orders:1"}, map[string]int64{"orders/1": 13}},
		{[]string{"--to-datetime", "2024-01-01T00:00:03.000", "--topic", "orders"}, map[string]int64{"orders/0": 3, "orders/1": 0, "orders/2": 3}},
		{[]string{"--to-datetime", "2024-01-01T01:00:03+01:00", "--topic", "orders:0"}, map[string]int64{"orders/0": 3}},
		{[]string{"--by-duration", "PT1H", "--topic", "orders"}, map[string]int64{"orders/0": 10, "orders/1": 0, "orders/2": 5}},
		{[]string{"--by-duration", "90m", "--topic", "orders:1"}, map[string]int64{"orders/1": 0}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := rc.kg(t, append([]string{"reset", "g", "-o", "json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var doc struct {
				DryRun     bool `json:"dryRun"`
				Partitions []struct {
					Topic     string `json:"topic"`
					Partition int32  `json:"partition"`
					NewOffset *int64 `json:"newOffset"`
				} `json:"partitions"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("json: %v\n%s", err, stdout)
			}
			got := make(map[string]int64)
			for _, p := range doc.Partitions {
				got[p.Topic+"/"+strconv.Itoa(int(p.Partition))] = *p.NewOffset
			}
			if !doc.DryRun || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("dryRun=%v new offsets = %v, want %v", doc.DryRun, got, tt.want)
			}
		})
	}
	rc.assertCommits(t, "g", initialCommits)
}

func TestResetJSON(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "reset", "g", "--to-offset", "12", "--topic", "orders:0,1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertOutput(t, "json", stdout, `{
  "group": "g",
  "groupExists": true,
  "state": "Empty",
  "scenario": "--to-offset 12",
  "scope": "--topic orders:0,1",
  "time": null,
  "dryRun": true,
  "partitions": [
    {
      "topic": "orders",
      "partition": 0,
      "currentOffset": 5,
      "newOffset": 10,
      "logStartOffset": 0,
      "logEndOffset": 10,
      "delta": 5,
      "note": "12 is past the log end: clamped to 10"
    },
    {
      "topic": "orders",
      "partition": 1,
      "currentOffset": 10,
      "newOffset": 12,
      "logStartOffset": 0,
      "logEndOffset": 20,
      "delta": 2,
      "note": null
    }
  ],
  "summary": {
    "partitions": 2,
    "changed": 2,
    "recordsConsumedAgain": 0,
    "recordsSkipped": 7,
    "partitionsWithoutCommit": 0
  },
  "warnings": [],
  "blocked": null,
  "result": null
}
`)
}

func TestResetExecuteAndUndo(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "reset", "g", "--shift-by", "-3", "--topic", "orders:0,1", "--execute")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertOutput(t, "stdout", stdout, `GROUP  TOPIC   PARTITION  NEW-OFFSET  PREVIOUS-OFFSET  COMMITTED-NOW  STATUS
g      orders          0           2                5              2  ok
g      orders          1           7               10              7  ok
`)
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 2, "orders/1": 7})
	path := receiptPath(t, stderr)
	if filepath.Dir(path) != rc.receipts {
		t.Fatalf("receipt %s is not in %s", path, rc.receipts)
	}
	if !strings.Contains(stderr, "To undo: kgroups -b "+rc.brokers+" undo "+path+" --execute\n") {
		t.Fatalf("no undo hint in stderr:\n%s", stderr)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("receipt %s: %v %v", path, st, err)
	}
	body, _ := os.ReadFile(path)
	for _, w := range []string{`"group": "g"`, `"scenario": "--shift-by -3"`, `"before": 5`, `"after": 2`, `"cluster": [`} {
		if !strings.Contains(string(body), w) {
			t.Errorf("receipt lacks %s:\n%s", w, body)
		}
	}

	// Undo: a dry run first, then for real.
	code, stdout, stderr = rc.kg(t, "undo", path)
	if code != 0 {
		t.Fatalf("undo dry run: exit %d: %s", code, stderr)
	}
	assertOutput(t, "undo plan", stdout, `GROUP  TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE
g      orders          0           5               2          0       10     +3  -
g      orders          1          10               7          0       20     +3  -
`)
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 2, "orders/1": 7})
	code, _, stderr = rc.kg(t, "undo", path, "--execute")
	if code != 0 {
		t.Fatalf("undo: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	if n := rc.receiptCount(t); n != 2 {
		t.Fatalf("%d receipts, want 2 (the reset's and the undo's)", n)
	}
}

func TestResetExportImport(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "reset", "g", "--to-datetime", "2024-01-01T00:00:03Z", "--topic", "orders", "--export")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertOutput(t, "export", stdout, "orders,0,3\norders,1,0\norders,2,3\n")
	file := filepath.Join(t.TempDir(), "offsets.csv")
	writeFile(t, file, stdout)
	code, _, stderr = rc.kg(t, "reset", "g", "--from-file", file, "--execute")
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 3, "orders/1": 0, "orders/2": 3})
}

func TestResetBadInput(t *testing.T) {
	rc := startResetCluster(t)
	dir := t.TempDir()
	badCSV := filepath.Join(dir, "bad.csv")
	writeFile(t, badCSV, "orders,0,1\norders,x,2\norders,1\n\norders,2,-4\n")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"non-numeric offset", []string{"reset", "g", "--to-offset", "abc", "--all-topics"}, 2,
			[]string{`invalid --to-offset "abc": give a non-negative whole number, e.g. 1500`}},
		{"bad datetime", []string{"reset", "g", "--to-datetime", "yesterday", "--all-topics"}, 2,
			[]string{`--to-datetime: invalid datetime "yesterday": accepted formats are Kafka's yyyy-MM-ddTHH:mm:ss.SSS with an optional zone (Z, +01:00 or +0100; no zone means UTC)`, "RFC 3339"}},
		{"impossible date", []string{"reset", "g", "--to-datetime", "2023-02-29T00:00:00Z", "--all-topics"}, 2,
			[]string{"day 29 does not exist in 2023-02"}},
		{"bad duration", []string{"reset", "g", "--by-duration", "1 day", "--all-topics"}, 2,
			[]string{`--by-duration: invalid duration "1 day": accepted formats are ISO-8601 PnDTnHnMn.nS`, "90m"}},
		{"bad shift", []string{"reset", "g", "--shift-by", "back", "--all-topics"}, 2,
			[]string{`--shift-by: invalid shift "back"`}},
		{"csv line numbers", []string{"reset", "g", "--from-file", badCSV}, 2,
			[]string{"--from-file " + badCSV + ": 3 bad lines", "line 2: partition \"x\" is not a non-negative whole number", "line 3: 2 fields", "line 5: offset \"-4\" is not a non-negative whole number"}},
		{"missing file", []string{"reset", "g", "--from-file", filepath.Join(dir, "nope.csv")}, 1,
			[]string{"--from-file: open", "no such file"}},
		{"shift-by without a commit", []string{"reset", "g", "--shift-by", "-1", "--topic", "orders"}, 1,
			[]string{`--shift-by moves a committed offset, and group "g" has no commit for orders/2`}},
		{"unknown group", []string{"reset", "nosuch", "--to-earliest", "--topic", "orders"}, 1,
			[]string{`group "nosuch" not found`, "--new-group"}},
		{"unknown topic", []string{"reset", "g", "--to-earliest", "--topic", "nosuch"}, 1,
			[]string{`topic "nosuch" does not exist`}},
		{"partition out of range", []string{"reset", "g", "--to-earliest", "--topic", "orders:1,5"}, 1,
			[]string{`topic "orders" has 3 partitions (0-2); partition 5 does not exist`}},
		{"bad topic syntax", []string{"reset", "g", "--to-earliest", "--topic", "orders:x"}, 2,
			[]string{`invalid --topic "orders:x": partition "x" is not a non-negative whole number`}},
		{"no scenario", []string{"reset", "g", "--all-topics"}, 2,
			[]string{"reset needs a scenario: one of --to-earliest, --to-latest, --to-current, --to-offset, --shift-by, --to-datetime, --by-duration, --from-file"}},
		{"two scenarios", []string{"reset", "g", "--to-earliest", "--to-offset", "3", "--all-topics"}, 2,
			[]string{"give exactly one scenario, not --to-earliest and --to-offset"}},
		{"no scope", []string{"reset", "g", "--to-earliest"}, 2,
			[]string{"reset needs a scope: --all-topics, or one or more --topic"}},
		{"two scopes", []string{"reset", "g", "--to-earliest", "--all-topics", "--topic", "orders"}, 2,
			[]string{"give either --all-topics or --topic, not both"}},
		{"no group", []string{"reset", "--to-earliest", "--all-topics"}, 2,
			[]string{"reset needs exactly one group name (got 0 arguments)"}},
		{"export and json", []string{"reset", "g", "--to-earliest", "--all-topics", "--export", "-o", "json"}, 2,
			[]string{"--export prints CSV; it cannot be combined with -o json"}},
		{"bad output", []string{"reset", "g", "--to-earliest", "--all-topics", "-o", "yaml"}, 2,
			[]string{`invalid --output "yaml": accepted values are table, json, csv`}},
		{"confirm without execute", []string{"reset", "g", "--to-earliest", "--all-topics", "--confirm", "g"}, 2,
			[]string{"--confirm only applies with --execute"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{}, tt.args...)
			// Bad input fails the same way with --execute (except
			// --confirm, which --execute makes valid).
			runs := [][]string{args}
			if tt.name != "confirm without execute" {
				runs = append(runs, append(append([]string{}, args...), "--execute"))
			}
			for _, args := range runs {
				code, stdout, stderr := rc.kg(t, args...)
				if code != tt.code {
					t.Errorf("%v: exit %d, want %d; stderr %s", args, code, tt.code, stderr)
				}
				for _, w := range tt.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("%v: stderr does not say %q:\n%s", args, w, stderr)
					}
				}
				if stdout != "" {
					t.Errorf("%v: stdout %q", args, stdout)
				}
			}
		})
	}
	rc.assertCommits(t, "g", initialCommits)
	if n := rc.receiptCount(t); n != 0 {
		t.Fatalf("bad input wrote %d receipts", n)
	}
}

func TestResetReadOnlyRefused(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "--read-only", "reset", "g", "--to-earliest", "--all-topics", "--execute")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	want := `kgroups: context "(ad-hoc)" is read-only: 'kgroups reset --execute' is refused and nothing was changed; run it without --execute for a dry run; to write, leave out --read-only or use another context` + "\n"
	if stdout != "" || stderr != want {
		t.Fatalf("stdout %q\nstderr %q\nwant   %q", stdout, stderr, want)
	}
	rc.assertCommits(t, "g", initialCommits)
	if n := rc.receiptCount(t); n != 0 {
		t.Fatalf("a refused reset wrote %d receipts", n)
	}
	// The dry run still works in a read-only context.
	if code, _, stderr := rc.kg(t, "--read-only", "reset", "g", "--to-earliest", "--all-topics"); code != 0 {
		t.Fatalf("read-only dry run: exit %d: %s", code, stderr)
	}
	// undo, delete and delete-offsets refuse too.
	for _, args := range [][]string{
		{"undo", writeReceipt(t), "--execute"},
		{"delete", "g", "--execute"},
		{"delete-offsets", "g", "--topic", "orders", "--execute"},
	} {
		code, _, stderr := rc.kg(t, append([]string{"--read-only"}, args...)...)
		if code != 1 || !strings.Contains(stderr, "is read-only: 'kgroups "+args[0]+" --execute' is refused and nothing was changed") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	rc.assertCommits(t, "g", initialCommits)
}

// writeReceipt writes a valid receipt for group g to a temporary file.
func writeReceipt(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "r.json")
	writeFile(t, p, `{"version":1,"action":"reset","cluster":["x:1"],"group":"g","time":"2024-01-01T00:00:00Z","user":"u","scenario":"--to-earliest","scope":"--all-topics","groupState":"Empty","offsets":[{"topic":"orders","partition":0,"before":1,"after":0}]}`)
	return p
}

func TestResetProtected(t *testing.T) {
	rc := startResetCluster(t)
	args := []string{"--protected", "reset", "g", "--to-latest", "--all-topics", "--execute"}
	code, _, stderr := rc.kg(t, args...)
	if code != 2 || !strings.Contains(stderr, `context "(ad-hoc)" is protected: to change group "g", type the name again with --confirm g; nothing was changed`) {
		t.Fatalf("without --confirm: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, append(args, "--confirm", "h")...)
	if code != 2 || !strings.Contains(stderr, `context "(ad-hoc)" is protected and --confirm h does not name group "g": nothing was changed`) {
		t.Fatalf("wrong --confirm: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	code, _, stderr = rc.kg(t, append(args, "--confirm", "g")...)
	if code != 0 {
		t.Fatalf("with --confirm g: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 10, "orders/1": 20})
}

func TestResetLiveGroupRefused(t *testing.T) {
	rc := startResetCluster(t)
	rc.Commit(t, "live", map[string]map[int32]int64{"orders": {0: 4, 1: 4}})
	m := rc.Join(t, "live", []string{"orders"}, kgo.ClientID("live-app"))
	before := rc.WaitStable(t, "live", 1, 3)

	// The dry run shows the plan and warns; it does not touch the group.
	code, stdout, stderr := rc.kg(t, "reset", "live", "--to-earliest", "--all-topics")
	if code != 0 || !strings.Contains(stdout, "live   orders          0           0") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, `Note: --execute would be refused now: cannot reset the offsets of group "live": it is Stable with 1 live member:`+"\n  ") ||
		strings.Contains(stderr, `\n`) {
		t.Fatalf("dry run stderr (the live members on lines of their own, no escaped newline):\n%s", stderr)
	}
	if gi := rc.GroupInfo("live"); gi.Epoch != before.Epoch || len(gi.Members) != 1 || gi.Members[0].MemberID != before.Members[0].MemberID {
		t.Fatalf("the dry run disturbed the group: %+v", gi)
	}

	code, stdout, stderr = rc.kg(t, "reset", "live", "--to-earliest", "--all-topics", "--execute")
	if code != 1 || stdout != "" {
		t.Fatalf("execute: exit %d, stdout %q", code, stdout)
	}
	for _, w := range []string{
		`kgroups: cannot reset the offsets of group "live": it is Stable with 1 live member:`,
		"  member " + m.MemberID() + ", client live-app, host ",
		"Stop its consumers, or remove them (then try again) with: kgroups -b " + rc.brokers + " rebalance live --all\n",
	} {
		if !strings.Contains(stderr, w) && !strings.Contains(stderr, strings.Replace(w, "Stop", "stop", 1)) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
	rc.assertCommits(t, "live", map[string]int64{"orders/0": 4, "orders/1": 4})
	if n := rc.receiptCount(t); n != 0 {
		t.Fatalf("a refused reset wrote %d receipts", n)
	}
}

func TestDeleteCLI(t *testing.T) {
	rc := startResetCluster(t)
	rc.Commit(t, "live", map[string]map[int32]int64{"orders": {0: 4}})
	rc.Join(t, "live", []string{"orders"})
	rc.WaitStable(t, "live", 1, 3)

	code, stdout, stderr := rc.kg(t, "delete", "g", "live", "nosuch")
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	assertOutput(t, "dry run", stdout, `GROUP   STATE        #MEMBERS  #COMMITTED  CAN-DELETE
g       Empty               0           2  yes
live    Stable              1           1  no: Stable, not Empty
nosuch  (not found)         0           0  no: not found
`)
	if !strings.Contains(stderr, "Dry run: nothing was deleted. Add --execute to delete.") {
		t.Fatalf("stderr: %s", stderr)
	}
	rc.assertCommits(t, "g", initialCommits)

	// Nothing deletable: the dry run does not suggest --execute.
	code, _, stderr = rc.kg(t, "delete", "live", "nosuch")
	if code != 0 || !strings.HasSuffix(stderr, "Dry run: nothing was deleted, and --execute would delete nothing.\n") || strings.Contains(stderr, "Add --execute") {
		t.Fatalf("dry run of nothing deletable: exit %d, stderr:\n%s", code, stderr)
	}

	code, stdout, stderr = rc.kg(t, "delete", "g", "live", "--execute")
	if code != 1 {
		t.Fatalf("execute: exit %d", code)
	}
	if !strings.HasPrefix(stdout, `Deleted group "g"; its 2 committed offset(s) are in the receipt `) {
		t.Fatalf("stdout: %s", stdout)
	}
	if !strings.Contains(stderr, `cannot delete group "live": it is Stable with 1 live member`) {
		t.Fatalf("stderr: %s", stderr)
	}
	if rc.GroupInfo("g") != nil {
		t.Fatal("g was not deleted")
	}
	rc.assertCommits(t, "live", map[string]int64{"orders/0": 4})

	// The receipt brings g back.
	path := strings.TrimSpace(strings.TrimPrefix(stdout, `Deleted group "g"; its 2 committed offset(s) are in the receipt `))
	if code, _, stderr := rc.kg(t, "undo", path, "--execute"); code != 0 {
		t.Fatalf("undo: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
}

func TestDeleteOffsetsCLI(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "delete-offsets", "g", "--topic", "orders:1")
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	assertOutput(t, "dry run", stdout, `GROUP  TOPIC   PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE
g      orders          1           -              10          -        -      -  -
`)
	assertOutput(t, "stderr", stderr, "1 committed offset will be deleted.\nDry run: nothing was changed. Add --execute to apply.\n")
	code, _, stderr = rc.kg(t, "delete-offsets", "g", "--topic", "orders:2")
	if code != 1 || !strings.Contains(stderr, `group "g" has no committed offset for topic "orders" partition 2 (it has commits for partitions 0, 1)`) {
		t.Fatalf("uncommitted partition: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, "delete-offsets", "g")
	if code != 2 || !strings.Contains(stderr, "delete-offsets needs one or more --topic") {
		t.Fatalf("no topic: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	code, _, stderr = rc.kg(t, "delete-offsets", "g", "--topic", "orders:1", "--execute")
	if code != 0 {
		t.Fatalf("execute: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 5})
	if code, _, stderr := rc.kg(t, "undo", receiptPath(t, stderr), "--execute"); code != 0 {
		t.Fatalf("undo: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
}

// The context is honoured by every command even when the cluster cannot be
// reached: a read-only refusal comes before any connection.
func TestReadOnlyRefusesBeforeConnecting(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	code, _, stderr := runKgroups(t, "-b", "127.0.0.1:1", "--read-only", "reset", "g", "--to-earliest", "--all-topics", "--execute")
	if code != 1 || !strings.Contains(stderr, "is read-only") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestResetFromStdin(t *testing.T) {
	rc := startResetCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"-b", rc.brokers, "reset", "g", "--from-file", "-", "--execute", "-o", "csv"},
		strings.NewReader("g,orders,0,1\nother,orders,0,9\ng,orders,1,2\n"), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	assertOutput(t, "stdout", out.String(), "orders,0,1\norders,1,2\n")
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 1, "orders/1": 2})
	if !strings.Contains(errOut.String(), "Receipt: "+rc.receipts) {
		t.Fatalf("stderr: %s", errOut.String())
	}
}
