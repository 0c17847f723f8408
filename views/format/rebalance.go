package format

// Moved says what a rebalance did to the partitions, counted by process:
// "3 partitions moved", or with members that came back under new member
// ids, "0 partitions moved, 2 members rejoined with new ids" (a static
// member that rejoins keeps its partitions, and its new id moves none).
func Moved(moved, rejoined int) string {
	s := Count(moved, "partition moved", "partitions moved")
	if rejoined > 0 {
		s += ", " + Count(rejoined, "member rejoined with a new id", "members rejoined with new ids")
	}
	return s
}
