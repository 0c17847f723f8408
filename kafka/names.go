package kafka

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// GroupNotFoundError is a request for a group no broker lists (or only as
// a tombstone), most often a typo. Its text is the one wording kgroups
// gives an unknown group everywhere (GroupNotFound).
type GroupNotFoundError struct {
	Group string
	// Similar are the listed names closest to Group (SimilarNames), for a
	// did-you-mean; nil when none is close or the listing was not read.
	Similar []string
}

func (e *GroupNotFoundError) Error() string { return GroupNotFound(e.Group, e.Similar) }

// GroupNotFound words an unknown group: `group "x" not found`, followed
// by `; did you mean "y"?` when similar names a few listed groups.
func GroupNotFound(name string, similar []string) string {
	return fmt.Sprintf("group %q not found", name) + DidYouMean(similar)
}

// DidYouMean is the suggestion after an unknown name: `; did you mean
// "a"?`, `; did you mean "a" or "b"?`, `; did you mean "a", "b" or "c"?`,
// or nothing for no names. Names are quoted as Go quotes them, so that a
// control character shows as its escape.
func DidYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return "; did you mean " + q[0] + "?"
	}
	return "; did you mean " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + "?"
}

// maxSimilar is how many names a did-you-mean offers at most.
const maxSimilar = 3

// SimilarNames returns the names of known closest to name, at most three,
// closest first (then in name order): those within a few edits of it
// (ignoring case; one edit for a name of up to 4 characters, two up to 8,
// three beyond), and those it starts, or that start it, when it has three
// characters or more. name itself is never offered.
func SimilarNames(name string, known []string) []string {
	type near struct {
		name string
		dist int
	}
	if name == "" {
		return nil
	}
	lower := strings.ToLower(name)
	n := utf8.RuneCountInString(name)
	cutoff := 3
	switch {
	case n <= 4:
		cutoff = 1
	case n <= 8:
		cutoff = 2
	}
	var found []near
	for _, k := range known {
		if k == name || k == "" {
			continue
		}
		lk := strings.ToLower(k)
		d := editDistance(lower, lk, cutoff)
		if d > cutoff && n >= 3 && (strings.HasPrefix(lk, lower) || strings.HasPrefix(lower, lk) && utf8.RuneCountInString(k) >= 3) {
			d = cutoff + 1 // after every near miss
		} else if d > cutoff {
			continue
		}
		found = append(found, near{k, d})
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].dist != found[j].dist {
			return found[i].dist < found[j].dist
		}
		return found[i].name < found[j].name
	})
	if len(found) > maxSimilar {
		found = found[:maxSimilar]
	}
	var out []string
	for _, f := range found {
		out = append(out, f.name)
	}
	return out
}

// editDistance is the edit distance between a and b in runes (insertions,
// deletions, substitutions and swaps of two neighbours, each one edit), or
// some number above limit once it is sure to exceed it.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	before := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(rb)]
}

// GroupNames lists the names of every group the brokers list, sorted,
// with one ListGroups on every broker (no describe, no offsets): what a
// did-you-mean and shell completion need.
func (c *Client) GroupNames(ctx context.Context) ([]string, error) {
	groups, err := c.ListedGroups(ctx)
	names := make([]string, 0, len(groups))
	for _, g := range groups {
		names = append(names, g.Name)
	}
	return names, err
}

// ListedGroup is a group as ListGroups lists it.
type ListedGroup struct {
	Name  string
	Type  GroupType
	State string
}

// ListedGroups lists every group with its type and state, sorted by name,
// with one ListGroups on every broker. When some brokers fail, it returns
// what the others listed together with the error.
func (c *Client) ListedGroups(ctx context.Context) ([]ListedGroup, error) {
	lctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	listed, err := c.adm.ListGroups(lctx)
	out := make([]ListedGroup, 0, len(listed))
	for _, lg := range listed.Sorted() {
		typ := GroupType(lg.GroupType)
		if typ == "" {
			typ = TypeClassic
		}
		out = append(out, ListedGroup{Name: lg.Group, Type: typ, State: lg.State})
	}
	if err != nil {
		return out, fmt.Errorf("list groups: %w", err)
	}
	return out, nil
}

// TopicPartitions lists every topic the metadata names with its partition
// count (internal topics included), from one metadata request: what shell
// completion of --topic needs.
func (c *Client) TopicPartitions(ctx context.Context) (map[string]int32, error) {
	mctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	meta, err := c.adm.Metadata(mctx)
	if err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	out := make(map[string]int32, len(meta.Topics))
	for name, td := range meta.Topics {
		if td.Err == nil {
			out[name] = int32(len(td.Partitions))
		}
	}
	return out, nil
}

// GroupArgs names a group on a suggested kgroups command line: the name as
// one argument; "--" and the name when it would read as a flag (a group
// named "--execute"), which must then end the command line (Command puts
// it there); or "--group-base64" and its bytes when the name cannot be
// typed or pasted as it is (Typable).
func GroupArgs(name string) []string {
	switch {
	case Typable(name):
		return []string{name}
	case strings.HasPrefix(name, "-") && Typable("x"+name):
		return []string{"--", name}
	}
	return []string{"--group-base64", base64.StdEncoding.EncodeToString([]byte(name))}
}

// Command is a suggested kgroups command line: words, the group (GroupArgs)
// and rest, the group last when it is given after "--", so that no flag
// follows the "--".
func Command(words []string, group string, rest ...string) []string {
	g := GroupArgs(group)
	out := slices.Clone(words)
	if g[0] == "--" {
		return append(append(out, rest...), g...)
	}
	return append(append(out, g...), rest...)
}

// asciiNames is set outside UTF-8 locales (SetASCIINames).
var asciiNames atomic.Bool

// SetASCIINames says that the terminal shows only ASCII as it is (a
// locale that is not UTF-8): a name beyond ASCII is then shown escaped,
// and so is not Typable. The command sets it once at start.
func SetASCIINames(ascii bool) { asciiNames.Store(ascii) }

// Typable reports whether a name can stand as itself in a command line a
// user pastes: valid UTF-8 with no control, format (bidi, zero-width),
// other default-ignorable (U+034F, the Hangul fillers), variation selector
// or unassigned characters, not empty, and not read as a flag (a leading
// "-"). What a terminal would show escaped is not typable: pasted back, the
// escape would name another group.
func Typable(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") || !utf8.ValidString(name) {
		return false
	}
	if asciiNames.Load() && strings.ContainsFunc(name, func(r rune) bool { return r >= utf8.RuneSelf }) {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			unicode.Is(unicode.Variation_Selector, r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
	})
}
