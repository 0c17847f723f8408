package rebalance

// The Java hash maps of Kafka's group coordinator, as far as they decide
// the order its assignors walk members, topics and partitions in
// (java.util.HashMap and HashSet; String and Uuid hash codes).

import (
	"cmp"
	"encoding/binary"
	"slices"
	"unicode/utf16"

	"github.com/kgroups/kgroups/kafka"
)

// tableForPuts is the table size of a Java HashMap of default capacity
// after n puts; tableForCollection that of a HashSet made from a
// collection of n (new HashSet<>(c)).
func tableForPuts(n int) int {
	c := 16
	for float64(n) > 0.75*float64(c) {
		c *= 2
	}
	return c
}

func tableForCollection(n int) int {
	c, want := 16, int(float32(n)/0.75)+1
	for c < want {
		c *= 2
	}
	return c
}

// javaUUIDHash is Java's Uuid.hashCode (org.apache.kafka.common.Uuid):
// the two 64-bit halves xored, then the halves of that xored.
func javaUUIDHash(id kafka.TopicID) int32 {
	hilo := binary.BigEndian.Uint64(id[:8]) ^ binary.BigEndian.Uint64(id[8:])
	return int32(uint32(hilo>>32) ^ uint32(hilo))
}

// javaHashOrders lists the iteration orders of a Java HashMap (or
// HashSet) holding keys, its table sized by table(size): by bucket (the
// hash, its high half folded into the low), and in every order within a
// bucket several keys share (their order of insertion, which kgroups
// cannot see), up to maxServerOrders.
func javaHashOrders(keys []string, size int, hash func(string) int32, table func(int) int) [][]string {
	mask := uint32(table(size) - 1)
	bucket := func(k string) uint32 {
		h := uint32(hash(k))
		return (h ^ h>>16) & mask
	}
	sorted := slices.Clone(keys)
	slices.SortStableFunc(sorted, func(a, b string) int { return cmp.Compare(bucket(a), bucket(b)) })
	orders := [][]string{nil}
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && bucket(sorted[j]) == bucket(sorted[i]) {
			j++
		}
		group := permutations(sorted[i:j], maxServerOrders)
		var next [][]string
		for _, o := range orders {
			for _, g := range group {
				if len(next) < maxServerOrders {
					next = append(next, append(slices.Clone(o), g...))
				}
			}
		}
		orders = next
		i = j
	}
	return orders
}

// javaStringHash is Java's String.hashCode: s[0]*31^(n-1) + … + s[n-1]
// over UTF-16 code units, wrapping at 32 bits.
func javaStringHash(s string) int32 {
	var h int32
	for _, c := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(c)
	}
	return h
}

// javaIntSetOrder is the order a Java HashSet<Integer> made from ps
// (new HashSet<>(list), as the broker rebuilds a member's target
// assignment) iterates in: by bucket, p modulo the table size. Partitions
// that share a bucket keep ps's (ascending) order, which is the broker's
// when the set was built from an ascending list.
func javaIntSetOrder(ps []int32) []int32 {
	capacity := tableForCollection(len(ps))
	out := slices.Clone(ps)
	slices.Sort(out)
	slices.SortStableFunc(out, func(a, b int32) int {
		ha, hb := uint32(a)^uint32(a)>>16, uint32(b)^uint32(b)>>16
		return int(ha&uint32(capacity-1)) - int(hb&uint32(capacity-1))
	})
	return out
}

// permutations lists up to limit orders of ss, ss's own first.
func permutations(ss []string, limit int) [][]string {
	var out [][]string
	var walk func(prefix, rest []string)
	walk = func(prefix, rest []string) {
		if len(out) >= limit {
			return
		}
		if len(rest) == 0 {
			out = append(out, slices.Clone(prefix))
			return
		}
		for i := range rest {
			next := append(slices.Clone(rest[:i]), rest[i+1:]...)
			walk(append(prefix, rest[i]), next)
		}
	}
	walk(nil, ss)
	return out
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
		if f > 1<<30 {
			return f
		}
	}
	return f
}
