package spark

import (
	"slices"
	"testing"
)

func TestString(t *testing.T) {
	uni := []rune("▁▂▃▄▅▆▇█")
	ascii := []rune("_.-=#")
	tests := []struct {
		name   string
		series []int64
		width  int
		levels []rune
		want   string
	}{
		{"empty draws nothing", nil, 4, uni, ""},
		{"one point draws nothing", []int64{8}, 4, uni, ""},
		{"one known point draws nothing", []int64{-1, 8, -1}, 4, uni, ""},
		{"all zero is the floor", []int64{0, 0, 0}, 3, uni, "▁▁▁"},
		{"one level per digit", []int64{0, 1, 10, 100, 1000, 10_000, 100_000, 1_000_000}, 8, uni, "▁▂▃▄▅▆▇█"},
		{"band edges", []int64{9, 99, 999, 9999, 99_999, 999_999, 9_999_999}, 7, uni, "▂▃▄▅▆▇█"},
		// The rows: a steady 8 and a steady 3,818 no longer
		// look alike, and 686 -> 843 stays in its band instead of
		// filling the cell.
		{"steady 8 sits low", []int64{8, 8, 8, 8}, 4, uni, "▂▂▂▂"},
		{"steady 3,818 sits four levels up", []int64{3818, 3818, 3818, 3818}, 4, uni, "▅▅▅▅"},
		{"686 to 843 is one band", []int64{686, 720, 765, 801, 843}, 5, uni, "▄▄▄▄▄"},
		{"right aligned", []int64{7, 7}, 4, uni, "  ▂▂"},
		{"keeps the newest", []int64{100, 0, 7, 14}, 3, uni, "▁▂▃"},
		{"unknown is blank", []int64{4, -1, 80}, 3, uni, "▂ ▃"},
		{"ascii", []int64{0, 5, 50, 500, 5000, 5_000_000}, 6, ascii, "_.-=##"},
		{"zero width", []int64{1, 1}, 0, uni, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.series, tt.width, tt.levels); got != tt.want {
				t.Fatalf("String(%v, %d) = %q, want %q", tt.series, tt.width, got, tt.want)
			}
		})
	}
}

func TestBands(t *testing.T) {
	if got, want := Bands(8), []string{"0", "1-9", "10-99", "100-999", "1k-9,999", "10k-99,999", "100k-999,999", "1M+"}; !slices.Equal(got, want) {
		t.Fatalf("Bands(8) = %q, want %q", got, want)
	}
	if got, want := Bands(5), []string{"0", "1-9", "10-99", "100-999", "1k+"}; !slices.Equal(got, want) {
		t.Fatalf("Bands(5) = %q, want %q", got, want)
	}
	// Every band's bounds are the levels Level gives.
	for _, v := range []int64{0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 999_999, 1_000_000, 1 << 62} {
		lvl := Level(v, 7)
		if v > 0 && lvl == 0 || v == 0 && lvl != 0 {
			t.Fatalf("Level(%d) = %d", v, lvl)
		}
	}
	if Level(1<<62, 7) != 7 || Level(999_999, 7) != 6 || Level(1000, 4) != 4 {
		t.Fatal("the top level holds everything above it")
	}
}
