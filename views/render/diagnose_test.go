package render

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestDiagnoseHostile: broker strings in a finding reach the terminal
// escaped, the suggested command quotes every word for a shell, and JSON
// keeps the exact bytes as \u escapes.
func TestDiagnoseHostile(t *testing.T) {
	g := "x;rm -rf /\x1b[2J"
	f := diagnose.Finding{
		ID: diagnose.IDStalledAtRecord, Severity: lag.SeverityErr, Topic: "t\x1b]0;p\x07", Partition: 2, Offset: 5,
		Message:  diagnose.Message{Format: "member \x1b[31mred owns it"},
		Evidence: diagnose.Evidence{{Key: "clientId", Value: "\x1b[31mred"}},
		Next:     [][]string{{"kgroups", "peek", g, "--topic", "t\x1b]0;p\x07:2"}, {"kgroups", "reset", g, "--shift-by", "1"}},
	}
	var b bytes.Buffer
	if err := Diagnose(&b, []DiagnosedGroup{{Group: g, Findings: []diagnose.Finding{f}}, {Group: "ok\x1b"}}, Layout{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) {
		t.Fatalf("raw control characters in the table:\n%q", out)
	}
	for _, want := range []string{`'x;rm -rf /\x1b[2J'`, `kgroups peek 'x;rm -rf /\x1b[2J' --topic 't\x1b]0;p\x07:2'; kgroups reset`, "ok\\x1b: no findings\n", `t\x1b]0;p\x07:2`} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := DiagnoseJSON(&b, []DiagnosedGroup{{Group: g, Findings: []diagnose.Finding{f}}}); err != nil {
		t.Fatal(err)
	}
	j := b.String()
	for _, want := range []string{`"group": "x;rm -rf /\u001b[2J"`, `"clientId": "\u001b[31mred"`, `"partition": 2`, `"next": "kgroups peek 'x;rm -rf /\u001b[2J' --topic 't\u001b]0;p\u0007:2'; kgroups reset 'x;rm -rf /\u001b[2J' --shift-by 1"`} {
		if !strings.Contains(j, want) {
			t.Errorf("JSON lacks %s:\n%s", want, j)
		}
	}
}

// TestDiagnoseMessagesCountInTheSingular: a finding's counts are worded
// by format.Count, so one record or one partition is not "1 records" or
// "1 partitions", and the verb agrees.
func TestDiagnoseMessagesCountInTheSingular(t *testing.T) {
	g := &kafka.Group{Name: "g", State: kafka.StateEmpty, Partitions: []kafka.PartitionOffsets{
		{Topic: "t", Partition: 0, Committed: 4, LogStart: 5, LogEnd: 9},
	}}
	fs := diagnose.Diagnose(diagnose.Input{Group: g, PartitionCounts: map[string]int32{"t": 1},
		Reads: &diagnose.Reads{Retention: map[string]int64{"t": 604800000}, Stable: map[diagnose.TP]diagnose.StableOffsets{}}})
	var got []string
	for i := range fs {
		got = append(got, DiagnoseMessage(&fs[i]))
	}
	want := []string{"committed offset 4 is below the log start 5: 1 record was deleted unread; it restarts at 5 (earliest) or 9 (latest)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages\n%q\nwant\n%q", got, want)
	}
	for _, tc := range []struct {
		c    diagnose.Count
		want string
	}{
		{diagnose.Count{N: 1, One: "record waits", Many: "records wait"}, "1 record waits"},
		{diagnose.Count{N: 30, One: "record waits", Many: "records wait"}, "30 records wait"},
		{diagnose.Count{N: 0, One: "member is", Many: "members are"}, "0 members are"},
	} {
		f := diagnose.Finding{Message: diagnose.Message{Format: "while %s", Args: []any{tc.c}}}
		if got := DiagnoseMessage(&f); got != "while "+tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, "while "+tc.want)
		}
	}
}
