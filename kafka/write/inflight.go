package write

import (
	"sort"
	"sync"
)

// Flight is a write kgroups has sent, or is about to send, and whose
// outcome it does not know yet: the receipt is on disk, the answer and the
// re-read are not in.
type Flight struct {
	What    string // "reset of group billing"
	Receipt string // the receipt's path
}

var flights = struct {
	sync.Mutex
	next int
	m    map[int]Flight
}{m: map[int]Flight{}}

// Begin records a write in flight from the moment its receipt is written;
// end, called once its outcome is known, forgets it. A process ended by a
// signal before end names what was in flight (InFlight) as unknown, with
// its receipt.
func Begin(what, receipt string) (end func()) {
	flights.Lock()
	id := flights.next
	flights.next++
	flights.m[id] = Flight{What: what, Receipt: receipt}
	flights.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			flights.Lock()
			delete(flights.m, id)
			flights.Unlock()
		})
	}
}

// InFlight is the writes begun and not ended, oldest first.
func InFlight() []Flight {
	flights.Lock()
	defer flights.Unlock()
	ids := make([]int, 0, len(flights.m))
	for id := range flights.m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	out := make([]Flight, 0, len(ids))
	for _, id := range ids {
		out = append(out, flights.m[id])
	}
	return out
}
