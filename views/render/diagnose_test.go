package render

import (
	"bytes"
	"strings"
	"testing"

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
		Message:  "member \x1b[31mred owns it",
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
