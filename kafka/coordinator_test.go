package kafka

import "testing"

func TestOffsetsPartitionVectors(t *testing.T) {
	for _, tc := range []struct {
		group string
		n     int32
		want  int32
	}{
		{"foo", 50, 24},
		{"my-group", 50, 12},
		{"group1", 50, 40},
		{"polygenelubricants", 50, 0}, // hashCode is MinInt32: abs maps it to 0
		{"", 50, 0},
		{"foo", 1, 0},
		{"foo", 0, -1},
	} {
		if got := OffsetsPartition(tc.group, tc.n); got != tc.want {
			t.Errorf("OffsetsPartition(%q, %d) = %d, want %d", tc.group, tc.n, got, tc.want)
		}
	}
}

func TestJavaHashCode(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int32
	}{
		{"", 0},
		{"a", 97},
		{"foo", 101574},
		{"polygenelubricants", -2147483648},
		{"é", 233},
		{"😀", 1772899}, // U+1F600 is D83D DE00 in UTF-16: 55357*31 + 56832
	} {
		if got := JavaHashCode(tc.s); got != tc.want {
			t.Errorf("JavaHashCode(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func FuzzOffsetsPartition(f *testing.F) {
	for _, s := range []string{"foo", "my-group", "polygenelubricants", "😀x"} {
		f.Add(s, int32(50))
	}
	f.Fuzz(func(t *testing.T, s string, n int32) {
		p := OffsetsPartition(s, n)
		if n <= 0 {
			if p != -1 {
				t.Fatalf("n=%d: got %d, want -1", n, p)
			}
			return
		}
		if p < 0 || p >= n {
			t.Fatalf("OffsetsPartition(%q, %d) = %d out of range", s, n, p)
		}
	})
}
