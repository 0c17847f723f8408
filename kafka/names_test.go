package kafka

import (
	"slices"
	"testing"
)

func TestSimilarNames(t *testing.T) {
	known := []string{"live-range", "live-ranges", "orders", "Orders-eu", "payments", "payments-v2", "billing", "a", "ab"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"live-rang", []string{"live-range", "live-ranges"}},
		{"live-range", []string{"live-ranges"}}, // never itself
		{"ordres", []string{"orders"}},
		{"ORDERS", []string{"orders", "Orders-eu"}},
		{"payment", []string{"payments", "payments-v2"}},
		{"pay", []string{"payments", "payments-v2"}},
		{"bililng", []string{"billing"}},
		{"zzz", nil},
		{"b", []string{"a", "ab"}},
		{"x", []string{"a"}},
		{"", nil},
	} {
		if got := SimilarNames(tc.name, known); !slices.Equal(got, tc.want) {
			t.Errorf("SimilarNames(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	many := []string{"g1", "g2", "g3", "g4", "g5"}
	if got := SimilarNames("g0", many); !slices.Equal(got, []string{"g1", "g2", "g3"}) {
		t.Errorf("at most three, in order: %q", got)
	}
}

func TestGroupNotFoundWording(t *testing.T) {
	for _, tc := range []struct {
		similar []string
		want    string
	}{
		{nil, `group "x" not found`},
		{[]string{"y"}, `group "x" not found; did you mean "y"?`},
		{[]string{"y", "z"}, `group "x" not found; did you mean "y" or "z"?`},
		{[]string{"y", "z", "w\x1b"}, `group "x" not found; did you mean "y", "z" or "w\x1b"?`},
	} {
		if got := (&GroupNotFoundError{Group: "x", Similar: tc.similar}).Error(); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.similar, got, tc.want)
		}
	}
}

// TestGroupArgsOutsideUTF8: where the terminal shows only ASCII as it is,
// a name beyond ASCII is shown escaped, so a suggestion names it in
// base64.
func TestGroupArgsOutsideUTF8(t *testing.T) {
	SetASCIINames(true)
	defer SetASCIINames(false)
	if got, want := GroupArgs("café"), []string{"--group-base64", "Y2Fmw6k="}; !slices.Equal(got, want) {
		t.Errorf("GroupArgs(café) = %q, want %q", got, want)
	}
	if got := GroupArgs("orders"); !slices.Equal(got, []string{"orders"}) {
		t.Errorf("GroupArgs(orders) = %q", got)
	}
}

func TestGroupArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"orders", []string{"orders"}},
		{"x;touch /tmp/p", []string{"x;touch /tmp/p"}}, // quoting is the renderer's
		{"café", []string{"café"}},
		{"evil\x1b]0;x\x07", []string{"--group-base64", "ZXZpbBtdMDt4Bw=="}},
		{"bad\xff", []string{"--group-base64", "YmFk/w=="}},
		{"rtl\u202egnp", []string{"--group-base64", "cnRs4oCuZ25w"}},
		{"zero\u200bwidth", []string{"--group-base64", "emVyb+KAi3dpZHRo"}},
		{"-looks-like-a-flag", []string{"--", "-looks-like-a-flag"}},
		{"--execute", []string{"--", "--execute"}},
		{"-\x1b", []string{"--group-base64", "LRs="}},
		{"ev\u034fil", []string{"--group-base64", "ZXbNj2ls"}},
		{"a\u3164b", []string{"--group-base64", "YeOFpGI="}},
	} {
		if got := GroupArgs(tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("GroupArgs(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
