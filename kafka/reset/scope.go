package reset

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// TP names one partition of one topic.
type TP struct {
	Topic     string
	Partition int32
}

func (tp TP) String() string { return tp.Topic + "/" + strconv.Itoa(int(tp.Partition)) }

func lessTP(a, b TP) bool {
	if a.Topic != b.Topic {
		return a.Topic < b.Topic
	}
	return a.Partition < b.Partition
}

// TopicScope is one --topic value: a topic and some of its partitions, or
// all of them when Partitions is nil.
type TopicScope struct {
	Topic string
	// Partitions are sorted and distinct; nil means every partition.
	Partitions []int32
}

func (ts TopicScope) String() string {
	if ts.Partitions == nil {
		return ts.Topic
	}
	// Runs of three or more partitions print as ranges, which
	// ParseTopicScope reads back: "0-29" rather than thirty numbers.
	var ps []string
	p := ts.Partitions
	for i := 0; i < len(p); {
		j := i
		for j+1 < len(p) && p[j+1] == p[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			ps = append(ps, strconv.Itoa(int(p[i]))+"-"+strconv.Itoa(int(p[j])))
		case j > i:
			ps = append(ps, strconv.Itoa(int(p[i])), strconv.Itoa(int(p[j])))
		default:
			ps = append(ps, strconv.Itoa(int(p[i])))
		}
		i = j + 1
	}
	return ts.Topic + ":" + strings.Join(ps, ",")
}

// Scope says which partitions a reset touches: all of the group's committed
// partitions, or the topics (and partitions) named.
type Scope struct {
	AllTopics bool
	Topics    []TopicScope
}

// IsZero reports that no scope was given.
func (s Scope) IsZero() bool { return !s.AllTopics && len(s.Topics) == 0 }

func (s Scope) String() string {
	if s.AllTopics {
		return "--all-topics"
	}
	if len(s.Topics) == 0 {
		return "(from the file)"
	}
	parts := make([]string, len(s.Topics))
	for i, t := range s.Topics {
		parts[i] = "--topic " + t.String()
	}
	return strings.Join(parts, " ")
}

// maxTopicLen is Kafka's limit on topic name length.
const maxTopicLen = 249

// TopicScopeFormat says what a --topic value looks like; errors quote it.
const TopicScopeFormat = "accepted forms are TOPIC (every partition) or TOPIC:P[,P...] with partition numbers or ranges, e.g. orders, orders:0,2 or orders:0-3"

// ValidTopicName reports why name cannot be a Kafka topic, or "" when it
// can: Kafka allows 1 to 249 characters from [a-zA-Z0-9._-] and neither "."
// nor "..".
func ValidTopicName(name string) string {
	switch {
	case name == "":
		return "the topic name is empty"
	case name == "." || name == "..":
		return fmt.Sprintf("%q is not a legal topic name", name)
	case len(name) > maxTopicLen:
		return fmt.Sprintf("the topic name is %d characters long; the limit is %d", len(name), maxTopicLen)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Sprintf("the topic name contains %q; topic names use only letters, digits, '.', '_' and '-'", r)
		}
	}
	return ""
}

// maxRange bounds a partition range such as 0-99 so that a typo like 0-2000000000
// cannot make kgroups allocate gigabytes; no topic has this many partitions.
const maxRange = 100000

// ParseTopicScope reads one --topic value: "orders" for every partition of
// the topic, or "orders:0,2" (ranges such as "0-3" allowed) for some.
func ParseTopicScope(s string) (TopicScope, error) {
	bad := func(why string) (TopicScope, error) {
		return TopicScope{}, fmt.Errorf("invalid --topic %q: %s; %s", s, why, TopicScopeFormat)
	}
	topic, list, hasList := strings.Cut(strings.TrimSpace(s), ":")
	if why := ValidTopicName(topic); why != "" {
		return bad(why)
	}
	if !hasList {
		return TopicScope{Topic: topic}, nil
	}
	if strings.TrimSpace(list) == "" {
		return bad("no partitions after ':'")
	}
	seen := make(map[int32]bool)
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return bad("an empty partition in the list")
		}
		if strings.HasPrefix(item, "-") {
			return bad(fmt.Sprintf("partition %q is negative", item))
		}
		lo, hi, isRange := strings.Cut(item, "-")
		from, err := parsePartition(lo)
		if err != nil {
			return bad(err.Error())
		}
		to := from
		if isRange {
			if to, err = parsePartition(hi); err != nil {
				return bad(err.Error())
			}
			if to < from {
				return bad(fmt.Sprintf("range %s runs backwards", item))
			}
			if int64(to)-int64(from) >= maxRange {
				return bad(fmt.Sprintf("range %s is longer than %d partitions", item, maxRange))
			}
		}
		for p := from; ; p++ {
			seen[p] = true
			if p == to {
				break
			}
		}
	}
	ps := make([]int32, 0, len(seen))
	for p := range seen {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	return TopicScope{Topic: topic, Partitions: ps}, nil
}

// parsePartition reads a partition number: a non-negative int32.
func parsePartition(s string) (int32, error) {
	if s == "" {
		return 0, fmt.Errorf("a partition number is missing")
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("partition %q is not a non-negative whole number", s)
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("partition %q is too large", s)
	}
	return int32(n), nil
}

// MergeTopicScopes combines repeated --topic values: the same topic named
// twice gets the union of its partitions, and a bare topic (every partition)
// absorbs any list for it. Topics keep the order they were first named in.
func MergeTopicScopes(in []TopicScope) []TopicScope {
	var out []TopicScope
	idx := make(map[string]int)
	for _, ts := range in {
		i, ok := idx[ts.Topic]
		if !ok {
			idx[ts.Topic] = len(out)
			cp := TopicScope{Topic: ts.Topic}
			if ts.Partitions != nil {
				cp.Partitions = append([]int32{}, ts.Partitions...)
			}
			out = append(out, cp)
			continue
		}
		if out[i].Partitions == nil {
			continue
		}
		if ts.Partitions == nil {
			out[i].Partitions = nil
			continue
		}
		out[i].Partitions = unionSorted(out[i].Partitions, ts.Partitions)
	}
	return out
}

func unionSorted(a, b []int32) []int32 {
	seen := make(map[int32]bool, len(a)+len(b))
	out := make([]int32, 0, len(a)+len(b))
	for _, ps := range [][]int32{a, b} {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// ParseScope reads the scope flags: --all-topics, or one or more --topic
// values. Giving both, or neither when the scenario needs a scope, is an
// error.
func ParseScope(allTopics bool, topics []string) (Scope, error) {
	if allTopics && len(topics) > 0 {
		return Scope{}, fmt.Errorf("give either --all-topics or --topic, not both")
	}
	if allTopics {
		return Scope{AllTopics: true}, nil
	}
	var tss []TopicScope
	for _, t := range topics {
		ts, err := ParseTopicScope(t)
		if err != nil {
			return Scope{}, err
		}
		tss = append(tss, ts)
	}
	return Scope{Topics: MergeTopicScopes(tss)}, nil
}

// contains reports whether the scope includes tp. A zero scope includes
// everything (from-file and undo without a scope use every row).
func (s Scope) contains(tp TP) bool {
	if s.IsZero() || s.AllTopics {
		return true
	}
	for _, ts := range s.Topics {
		if ts.Topic != tp.Topic {
			continue
		}
		if ts.Partitions == nil {
			return true
		}
		i := sort.Search(len(ts.Partitions), func(i int) bool { return ts.Partitions[i] >= tp.Partition })
		return i < len(ts.Partitions) && ts.Partitions[i] == tp.Partition
	}
	return false
}
