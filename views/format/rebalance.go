package format

// Moved says what a rebalance did to the partitions, counted by process:
// "3 partitions changed process", or with members that came back under new
// member ids, "0 partitions changed process, 2 members rejoined with new
// ids" (a static member that rejoins keeps its partitions, and its new id
// moves none).
func Moved(moved, rejoined int) string {
	s := Count(moved, "partition changed process", "partitions changed process")
	if rejoined > 0 {
		s += ", " + Count(rejoined, "member rejoined with a new id", "members rejoined with new ids")
	}
	return s
}

// Predicted says what a predicted rebalance would do, counted by process,
// in the present tense of a prediction: "no partition changes process",
// "3 partitions change process", "0 partitions change process, 1 member
// rejoins with a new id".
func Predicted(moved, rejoined int) string {
	s := "no partition changes process"
	if moved > 0 || rejoined > 0 {
		s = Count(moved, "partition changes process", "partitions change process")
	}
	if rejoined > 0 {
		s += ", " + Count(rejoined, "member rejoins with a new id", "members rejoin with new ids")
	}
	return s
}
