package kafka

import "sync"

// strTable keeps one copy of each broker string the polls repeat (topic
// names, states, assignors, member and client ids, hosts), carried from
// one poll to the next: a snapshot then shares those strings with the one
// before it, and within a poll every group that commits to a topic holds
// the same topic string rather than its own copy from its own response. It
// holds only the strings of the latest poll, so a string no poll sees any
// more is dropped.
type strTable struct {
	mu   sync.Mutex
	last map[string]string
}

// interner is one poll's view of the table: the previous poll's strings,
// read only (a concurrent poll may read them too), and this poll's.
type interner struct {
	prev map[string]string
	cur  map[string]string
}

func (t *strTable) begin() *interner {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &interner{prev: t.last, cur: make(map[string]string, len(t.last))}
}

// end keeps this poll's strings for the next poll.
func (t *strTable) end(in *interner) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = in.cur
}

// get returns the table's copy of s, adding s when the table has none. A
// nil interner returns s.
func (in *interner) get(s string) string {
	if in == nil || s == "" {
		return s
	}
	if v, ok := in.cur[s]; ok {
		return v
	}
	if v, ok := in.prev[s]; ok {
		s = v
	}
	in.cur[s] = s
	return s
}

// internAll copies ss with the table's strings (nil for none).
func internAll(ss []string, in *interner) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = in.get(s)
	}
	return out
}
