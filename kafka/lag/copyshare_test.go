package lag

import (
	"testing"
	"unsafe"
)

// TestAFreshCopySharesNoEmptiedSlice: a group record's slices emptied in
// place keep their arrays (memberPaces empties unpaced with [:0] at each
// poll, and refills it where it fits). A History copied into fresh
// (copyGroupsFresh, the UI's judging job) took them with the record, and
// its next poll wrote into the source's array while the source was read:
// a data race under the race detector (TestHistoryEquivalenceCopies).
// The copy's are its own, or none.
func TestAFreshCopySharesNoEmptiedSlice(t *testing.T) {
	src := NewHistory(DefaultConfig())
	g := &groupHist{
		memberless: make([]pollRun, 1, 4)[:0],
		unpaced:    make([]uint8, 3, 8)[:0],
		rewinds:    make([]heldRewind, 1, 4)[:0],
		turns:      make([]heldTurns, 1, 4)[:0],
	}
	src.groups = map[string]*groupHist{"g": g}
	for _, fresh := range []bool{true, false} {
		h := NewHistory(DefaultConfig())
		if fresh {
			h.copyGroupsFresh(src)
		} else {
			h.copyGroups(src)
		}
		c := h.groups["g"]
		for _, s := range []struct {
			name       string
			copied, of unsafe.Pointer
		}{
			{"memberless", unsafe.Pointer(unsafe.SliceData(c.memberless)), unsafe.Pointer(unsafe.SliceData(g.memberless))},
			{"unpaced", unsafe.Pointer(unsafe.SliceData(c.unpaced)), unsafe.Pointer(unsafe.SliceData(g.unpaced))},
			{"rewinds", unsafe.Pointer(unsafe.SliceData(c.rewinds)), unsafe.Pointer(unsafe.SliceData(g.rewinds))},
			{"turns", unsafe.Pointer(unsafe.SliceData(c.turns)), unsafe.Pointer(unsafe.SliceData(g.turns))},
		} {
			if s.copied == s.of {
				t.Errorf("fresh %v: the copy's %s shares the source's array", fresh, s.name)
			}
		}
	}
}
