package lag

import (
	"slices"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

func TestGroupLagSeries(t *testing.T) {
	h := NewHistory(Config{Samples: 4})
	h.Add(snap(at(0), grp("a", po("t", 0, 10, 15), po("t", 1, 0, 5))))
	h.Add(snap(at(1), grp("a", po("t", 0, 12, 20), po("t", 1, kafka.NoOffset, 9))))
	h.Add(snap(at(2), grp("a", po("t", 0, 20, 20), po("t", 1, 9, 9))))

	if got, want := h.GroupLagSeries("a", nil), []int64{10, 8, 0}; !slices.Equal(got, want) {
		t.Fatalf("series = %v, want %v", got, want)
	}
	// The ring keeps only the last Samples polls, and the result is
	// appended to dst.
	h.Add(snap(at(3), grp("a", po("t", 0, 20, 23))))
	h.Add(snap(at(4), grp("a", po("t", 0, 20, 24))))
	dst := []int64{99}
	if got, want := h.GroupLagSeries("a", dst), []int64{99, 8, 0, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("series = %v, want %v", got, want)
	}
	if got := h.GroupLagSeries("nope", nil); got != nil {
		t.Fatalf("unknown group series = %v, want nil", got)
	}
}

func TestGroupLagSeriesGapsAndEviction(t *testing.T) {
	h := NewHistory(Config{Samples: 10, EvictAfter: 2})
	h.Add(snap(at(0), grp("a", po("t", 0, 1, 4)), grp("b", po("t", 0, 0, 1))))
	h.Add(snap(at(1), grp("b", po("t", 0, 0, 2))))
	h.Add(snap(at(2), grp("a", po("t", 0, 1, 6)), grp("b", po("t", 0, 0, 3))))
	// A missing poll shows as NoOffset.
	if got, want := h.GroupLagSeries("a", nil), []int64{3, kafka.NoOffset, 5}; !slices.Equal(got, want) {
		t.Fatalf("a = %v, want %v", got, want)
	}
	h.Add(snap(at(3), grp("b", po("t", 0, 0, 4))))
	if h.Groups() != 2 {
		t.Fatalf("groups after one missing poll = %d, want 2", h.Groups())
	}
	h.Add(snap(at(4), grp("b", po("t", 0, 0, 5))))
	if h.Groups() != 1 {
		t.Fatalf("groups after two missing polls = %d, want 1", h.Groups())
	}
	if got := h.GroupLagSeries("a", nil); got != nil {
		t.Fatalf("evicted group series = %v, want nil", got)
	}
	// A group that comes back starts a fresh history.
	h.Add(snap(at(5), grp("a", po("t", 0, 1, 2))))
	if got, want := h.GroupLagSeries("a", nil), []int64{1}; !slices.Equal(got, want) {
		t.Fatalf("returned group = %v, want %v", got, want)
	}
	if got, want := h.GroupLagSeries("b", nil), []int64{1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Fatalf("b = %v, want %v", got, want)
	}
}

func TestAddIgnoresStaleAndNil(t *testing.T) {
	h := NewHistory(DefaultConfig())
	h.Add(nil)
	h.Add(snap(at(5), grp("a", po("t", 0, 1, 4))))
	h.Add(snap(at(5), grp("a", po("t", 0, 1, 9))))
	h.Add(snap(at(4), grp("a", po("t", 0, 1, 9))))
	if h.Polls() != 1 {
		t.Fatalf("polls = %d, want 1", h.Polls())
	}
	if got, want := h.GroupLagSeries("a", nil), []int64{3}; !slices.Equal(got, want) {
		t.Fatalf("series = %v, want %v", got, want)
	}
}

func TestPartitionsAppearAndVanish(t *testing.T) {
	h := NewHistory(Config{EvictAfter: 2})
	h.Add(snap(at(0), grp("a", po("t", 0, 1, 2), po("t", 1, 1, 2))))
	h.Add(snap(at(1), grp("a", po("t", 1, 1, 3), po("u", 0, 0, 7))))
	if h.Partitions() != 3 {
		t.Fatalf("partitions after t/0 vanished once = %d, want 3", h.Partitions())
	}
	h.Add(snap(at(2), grp("a", po("t", 1, 1, 4), po("u", 0, 0, 7))))
	if h.Partitions() != 2 {
		t.Fatalf("partitions after t/0 vanished twice = %d, want 2", h.Partitions())
	}
	if got, want := h.GroupLagSeries("a", nil), []int64{2, 9, 10}; !slices.Equal(got, want) {
		t.Fatalf("series = %v, want %v", got, want)
	}
}

func TestUnsortedAndDuplicatePartitions(t *testing.T) {
	h := NewHistory(DefaultConfig())
	// Out of order and with a duplicate: the first occurrence wins.
	h.Add(snap(at(0), grp("a", po("u", 0, 0, 5), po("t", 1, 0, 3), po("t", 1, 0, 100), po("t", 0, 0, 1))))
	if h.Partitions() != 3 {
		t.Fatalf("partitions = %d, want 3", h.Partitions())
	}
	if got, want := h.GroupLagSeries("a", nil), []int64{9}; !slices.Equal(got, want) {
		t.Fatalf("series = %v, want %v", got, want)
	}
	// A duplicate group name keeps the first.
	h.Add(snap(at(1), grp("a", po("t", 0, 0, 2)), grp("a", po("t", 0, 0, 50))))
	if got, want := h.GroupLagSeries("a", nil), []int64{9, 2}; !slices.Equal(got, want) {
		t.Fatalf("series = %v, want %v", got, want)
	}
}

// TestFillNone fills slabs of every length up to a few kilobytes, odd
// lengths included, with "none".
func TestFillNone(t *testing.T) {
	for n := 0; n <= 4100; n++ {
		b := make([]byte, n)
		fillNone(b)
		for i, v := range b {
			if v != 0xff {
				t.Fatalf("length %d: byte %d is %#x, want 0xff", n, i, v)
			}
		}
	}
}
