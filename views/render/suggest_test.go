package render_test

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/views/render"
)

// TestSuggestionsNameTheSameGroup: a suggested command, pasted, names the
// group it is about: "--" before a name that reads as a flag (and the
// name last), --group-base64 for one a terminal would show escaped.
func TestSuggestionsNameTheSameGroup(t *testing.T) {
	for _, tc := range []struct{ group, want string }{
		{"--execute", "kgroups describe --time-lag -- --execute"},
		{"-x y", "kgroups describe --time-lag -- '-x y'"},
		{"billing", "kgroups describe billing --time-lag"},
		{"ev\u034fil", "kgroups describe --group-base64 ZXbNj2ls --time-lag"},
		{"cid-nl-line1\nline2", "kgroups describe --group-base64 Y2lkLW5sLWxpbmUxCmxpbmUy --time-lag"},
		{"bad\xff", "kgroups describe --group-base64 YmFk/w== --time-lag"},
	} {
		if got := render.DescribeCommand(tc.group, "--time-lag"); got != tc.want {
			t.Errorf("DescribeCommand(%q) = %q, want %q", tc.group, got, tc.want)
		}
	}
	f := &diagnose.Finding{Next: [][]string{{"kgroups", "describe", "--", "--execute"}}}
	if got, want := render.DiagnoseNext(f), "kgroups describe -- --execute"; got != want {
		t.Errorf("DiagnoseNext = %q, want %q", got, want)
	}
}

// TestCannotDescribeEscapesOnce: the unknown-type refusal quotes the name
// and escapes each control once ("\x1b", not "\\x1b").
func TestCannotDescribeEscapesOnce(t *testing.T) {
	g := &kafka.Group{Name: "q\x1b]0;x\x07\u034f", Type: "queue\x1b", State: "Active"}
	want := `kgroups cannot describe groups of type queue\x1b yet (group "q\x1b]0;x\a\u034f" is Active)`
	if got := render.CannotDescribe(g); got != want {
		t.Errorf("CannotDescribe = %q, want %q", got, want)
	}
}

// TestEmptyGroupIDShownQuoted: the group whose id is "" is listed as "",
// never as "-" (no group).
func TestEmptyGroupIDShownQuoted(t *testing.T) {
	var b strings.Builder
	if err := render.List(&b, []*kafka.Group{{Name: "", Type: kafka.TypeClassic, State: kafka.StateEmpty}}, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\n\"\"  ") {
		t.Errorf("the empty group id:\n%s", b.String())
	}
}
