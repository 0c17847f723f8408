package kafka

import "strconv"

// Count is n and its noun, in the singular for 1 and the plural otherwise
// ("1 member", "3 members"), for the sentences kafka/ words itself (errors,
// notes, a reset's state). Screens and the CLI word theirs with
// views/format.Count, which gives the same words; a diagnosis finding
// carries a diagnose.Count that the renderers word with it.
func Count[N ~int | ~int32 | ~int64](n N, one, many string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, one, many)
}

// Noun is one when n is 1, else many.
func Noun[N ~int | ~int32 | ~int64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
