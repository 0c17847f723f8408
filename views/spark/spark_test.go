package spark

import "testing"

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
		{"empty pads", nil, 4, uni, "    "},
		{"all zero is the floor", []int64{0, 0, 0}, 3, uni, "▁▁▁"},
		{"rising", []int64{0, 1, 2, 3, 4, 5, 6, 7}, 8, uni, "▁▂▃▄▅▆▇█"},
		{"small lag leaves the floor", []int64{0, 1, 100}, 3, uni, "▁▂█"},
		{"right aligned", []int64{7, 7}, 4, uni, "  ██"},
		{"keeps the newest", []int64{100, 0, 7, 14}, 3, uni, "▁▅█"},
		{"rounds to nearest", []int64{3, 10}, 2, uni, "▃█"},
		{"unknown is blank", []int64{4, -1, 8}, 3, uni, "▅ █"},
		{"ascii", []int64{0, 1, 2, 3, 4}, 5, ascii, "_.-=#"},
		{"zero width", []int64{1}, 0, uni, ""},
		{"a steady small lag stays low", []int64{1, 1, 1}, 3, uni, "▂▂▂"},
		{"one message per level at most", []int64{0, 2, 1}, 3, uni, "▁▃▂"},
		{"ascii small lag", []int64{1, 1}, 2, ascii, ".."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.series, tt.width, tt.levels); got != tt.want {
				t.Fatalf("String(%v, %d) = %q, want %q", tt.series, tt.width, got, tt.want)
			}
		})
	}
}
