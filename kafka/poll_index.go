package kafka

import "sort"

// groupIndex finds a poll's group builders by name: gbs, in name order,
// and byName, the same builders by name. A poll looks up every group
// several times (its describe, its offsets, each answer's groups), and at
// 10,000 groups hashing each name into a map of 10,000 was a few percent
// of `kgroups serve`'s CPU; the names a poll looks up come mostly in name
// order, which a walk through gbs follows with a compare or two.
type groupIndex struct {
	gbs    []groupBuilder
	byName map[string]*groupBuilder
}

// walk is a lookup that starts where the one before it found its group.
func (ix groupIndex) walk() groupWalk { return groupWalk{ix: ix} }

// groupWalk looks up names from a cursor into gbs: a name at or after
// the cursor is found by galloping forward from it; one before it, or not
// among gbs, is looked up in byName. Either way the answer is byName's
// (TestGroupWalkFindsAsTheMap).
type groupWalk struct {
	ix groupIndex
	at int
	// hashed counts the lookups that went to byName.
	hashed int
}

// find is the builder of the group named name, if the poll has one.
func (w *groupWalk) find(name string) (*groupBuilder, bool) {
	gbs := w.ix.gbs
	lo := w.at
	if lo < len(gbs) && gbs[lo].g.Name < name {
		// Gallop: the first name at or after name lies in (lo, hi].
		hi, step := lo+1, 1
		for hi < len(gbs) && gbs[hi].g.Name < name {
			lo = hi
			step *= 2
			hi = lo + step
		}
		hi = min(hi, len(gbs))
		lo = lo + 1 + sort.Search(hi-lo-1, func(k int) bool { return gbs[lo+1+k].g.Name >= name })
	}
	if lo < len(gbs) && gbs[lo].g.Name == name {
		w.at = lo + 1
		return &gbs[lo], true
	}
	w.hashed++
	gb, ok := w.ix.byName[name]
	return gb, ok
}
