package format

import (
	"reflect"
	"strings"
	"testing"
)

func TestWidthAndTruncate(t *testing.T) {
	tests := []struct {
		s     string
		width int
	}{
		{"orders", 6}, {"消费者组", 8}, {"👩\u200d💻", 2}, {"café", 4}, {"▁▂▃", 3}, {"", 0},
	}
	for _, tt := range tests {
		if got := Width(tt.s); got != tt.width {
			t.Errorf("Width(%q) = %d, want %d", tt.s, got, tt.width)
		}
	}
	if got := Truncate("consumer-group", 8, "…"); got != "consume…" {
		t.Errorf("Truncate = %q", got)
	}
	// A wide character never straddles the edge: the result fits.
	if got := Truncate("消费者组", 5, "…"); Width(got) > 5 || got != "消费…" {
		t.Errorf("Truncate(CJK, 5) = %q (width %d)", got, Width(got))
	}
	if got := Truncate("abc", 0, "…"); got != "" {
		t.Errorf("Truncate to 0 = %q", got)
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("Remove 1 member from orders?\n  receipt /a/very/long/path/that/does/not/fit", 16)
	want := []string{"Remove 1 member", "from orders?", "  receipt", "  /a/very/long/p", "  ath/that/does/", "  not/fit"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	for _, l := range Wrap(strings.Repeat("消", 25), 10) {
		if Width(l) > 10 {
			t.Errorf("wrapped line %q is %d cells wide", l, Width(l))
		}
	}
}

func TestCountAndOffset(t *testing.T) {
	if got := Count(1, "member", "members") + ", " + Count(0, "member", "members") + ", " + Count(3, "partition", "partitions"); got != "1 member, 0 members, 3 partitions" {
		t.Errorf("Count = %q", got)
	}
	if got := Noun(int64(1), "record", "records") + " " + Noun(int32(2), "record", "records"); got != "record records" {
		t.Errorf("Noun = %q", got)
	}
	if got := Offset(-1) + " " + Offset(0) + " " + Offset(42); got != "- 0 42" {
		t.Errorf("Offset = %q", got)
	}
	if got := Short(90*24*3600e9) + " " + Short(59e9) + " " + Short(61*60e9); got != "90d 59s 1h" {
		t.Errorf("Short = %q", got)
	}
}
