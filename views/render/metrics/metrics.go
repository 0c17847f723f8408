// Package metrics renders a judged poll (a snapshot and the lag.Tracker
// that judged it) as Prometheus metric families, and the families as the
// text exposition format or OpenMetrics. It is pure: `kgroups serve`
// renders once per poll and its scrapes serve the bytes.
//
// Label values are the broker's strings, byte for byte, escaped by the
// exposition's own rules (backslash, double quote, line feed); the only
// change is that each byte that is not UTF-8, which no exposition can
// carry, becomes U+FFFD (as in -o json), and such a group's series carry
// its exact id in a group_base64 label, so that no two groups share a
// series. Nothing here is sanitized for a terminal, and no setting
// of the connection (a password, a token) reaches a family.
package metrics

import (
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
)

// Granularity is how finely lag is exported.
type Granularity int

// Granularities, coarsest first: each one exports what the coarser ones
// do and more.
const (
	// ByGroup exports a group's totals and verdict only.
	ByGroup Granularity = iota
	// ByTopic adds the lag and time lag of each topic a group consumes.
	ByTopic
	// ByPartition adds each partition's lag, offsets and time lag.
	ByPartition
)

var granularityNames = [...]string{"group", "topic", "partition"}

func (g Granularity) String() string {
	if int(g) < len(granularityNames) {
		return granularityNames[g]
	}
	return "group"
}

// ParseGranularity reads "group", "topic" or "partition" (any case).
func ParseGranularity(s string) (Granularity, error) {
	for i, n := range granularityNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Granularity(i), nil
		}
	}
	return ByGroup, fmt.Errorf("unknown granularity %q (accepted: group, topic, partition)", s)
}

// Filter chooses the groups that are exported: kafka.GroupFilter, which
// `kgroups health --all-groups` applies too.
type Filter = kafka.GroupFilter

// CompileFilter is kafka.CompileGroupFilter.
func CompileFilter(allow, deny []string, skipEmpty bool) (Filter, error) {
	return kafka.CompileGroupFilter(allow, deny, skipEmpty)
}

// Options say what Groups renders.
type Options struct {
	Granularity Granularity
	Filter      Filter
	// MaxSeries caps the series of the groups' families (the exporter's
	// own are not counted): groups are taken in name order, and the
	// first group whose series would pass the cap is dropped with every
	// group after it. 0 means no cap.
	MaxSeries int
	// SizeFrom, when not nil, is the families of the rendering before
	// (the poll before's): each family's samples and label values, and
	// the groups' names and starts, are allocated at once at its sizes
	// instead of growing sample by sample. Only the allocations depend on
	// it, never the families.
	SizeFrom *Families
}

// Stats says what Groups rendered and what it left out.
type Stats struct {
	// Groups and Series are the groups and series rendered.
	Groups, Series int
	// DroppedGroups and DroppedSeries were left out by MaxSeries; the
	// groups the filter left out are not counted.
	DroppedGroups, DroppedSeries int
	// FirstDropped is the first group left out by MaxSeries, "" for none.
	FirstDropped string
}

// The time-lag sources, the value of the *_time_lag_source gauges: one
// series whose value says how the time lag beside it was obtained, so
// that a change of method does not start a new series.
const (
	SourceUnknown      = 0 // no time lag known: the seconds read NaN
	SourceCaughtUp     = 1 // committed at the log end: 0 seconds
	SourceInterpolated = 2 // interpolated between the log ends kgroups saw grow
	SourceLowerBound   = 3 // at least this old: the record at the commit not read yet
	SourceExact        = 4 // the timestamp of the record at the commit
)

// Source is the *_time_lag_source value of a time lag.
func Source(t lag.TimeLag) float64 {
	switch t.Kind {
	case lag.TimeLagCaughtUp:
		return SourceCaughtUp
	case lag.TimeLagInterpolated:
		return SourceInterpolated
	case lag.TimeLagAtLeast:
		return SourceLowerBound
	case lag.TimeLagExact:
		return SourceExact
	}
	return SourceUnknown
}

// Status is the status label of a verdict: its decided status ("OK",
// "WARN", "NO-COMMITS", "STALL", "REWIND", "STOP"), "JUDGING" while the
// window is not full (without the count, which would start a new series
// at every poll), "UNKNOWN" when nothing can be judged.
func Status(v *lag.Verdict) string {
	if _, ok := v.Decided(); ok {
		return v.Status.String()
	}
	if v.Judging() {
		return lag.JudgingText
	}
	return "UNKNOWN"
}

// family is one metric family being built: its samples' label values
// flattened (len(labels) a sample) and their values.
type family struct {
	name, help string
	typ        MetricType
	labels     []string
	vals       []string
	samples    []float64
	// exact holds, by sample, the group_base64 label of a sample whose
	// group id is not UTF-8 (see add); nil while there is none.
	exact map[int]string

	// ref, while not nil, is the same family of the rendering before
	// (Options.SizeFrom), and the family's samples so far are ref's
	// first n: add compares instead of appending, and the family
	// allocates nothing until a sample differs (own). A poll at rest
	// then renders its groups' families without allocating them, and
	// ends sharing ref's samples (done).
	ref *family
	n   int
}

// ExactGroupLabel is the label added to a series whose group id is not
// UTF-8: the id's exact bytes in standard base64, as JSON's groupBase64
// and --group-base64 give them. Without it, "coll\xff", "coll\xfe" and
// "coll\uFFFD" would all be the one series group="coll\uFFFD", and
// Prometheus would keep only one of the three.
const ExactGroupLabel = "group_base64"

func newFamily(name, help string, typ MetricType, labels ...string) *family {
	return &family{name: name, help: help, typ: typ, labels: labels}
}

// add appends a sample with the family's labels set to values (in the
// order the family names them).
func (f *family) add(v float64, values ...string) {
	if f.ref != nil {
		if f.matches(v, values) {
			f.n++
			return
		}
		f.own()
	}
	for j, x := range values {
		if !utf8.ValidString(x) && f.labels[j] == "group" {
			if f.exact == nil {
				f.exact = make(map[int]string)
			}
			f.exact[len(f.samples)] = base64.StdEncoding.EncodeToString([]byte(x))
		}
		f.vals = append(f.vals, labelValue(x))
	}
	f.samples = append(f.samples, v)
}

// matches reports whether a sample of value v and label values values,
// added next, would be sample n of f.ref, bit for bit. A value that is
// not UTF-8 never matches: add then writes it as it always does.
func (f *family) matches(v float64, values []string) bool {
	r, k := f.ref, len(f.labels)
	if f.n >= len(r.samples) || math.Float64bits(r.samples[f.n]) != math.Float64bits(v) {
		return false
	}
	if _, ok := r.exact[f.n]; ok {
		return false
	}
	vals := r.vals[f.n*k : (f.n+1)*k]
	for j, x := range values {
		if vals[j] != x || !utf8.ValidString(x) {
			return false
		}
	}
	return true
}

// own gives f samples of its own, ref's first n, allocated at ref's
// sizes, and ends the comparing.
func (f *family) own() {
	r, k := f.ref, len(f.labels)
	f.ref = nil
	f.samples = append(make([]float64, 0, max(len(r.samples), f.n+1)), r.samples[:f.n]...)
	f.vals = append(make([]string, 0, max(len(r.vals), (f.n+1)*k)), r.vals[:f.n*k]...)
	for i, b64 := range r.exact {
		if i < f.n {
			if f.exact == nil {
				f.exact = make(map[int]string)
			}
			f.exact[i] = b64
		}
	}
}

// done ends the comparing of a family whose every sample was ref's: it
// shares ref's first n (which no one writes).
func (f *family) done() {
	r, k := f.ref, len(f.labels)
	if r == nil {
		return
	}
	f.ref = nil
	f.samples = r.samples[:f.n:f.n]
	f.vals = r.vals[: f.n*k : f.n*k]
	for i, b64 := range r.exact {
		if i < f.n {
			if f.exact == nil {
				f.exact = make(map[int]string)
			}
			f.exact[i] = b64
		}
	}
}

func (f *family) len() int {
	if f.ref != nil {
		return f.n
	}
	return len(f.samples)
}

func (f *family) truncate(n int) {
	if f.ref != nil {
		f.n = min(f.n, n)
		return
	}
	for i := range f.exact {
		if i >= n {
			delete(f.exact, i)
		}
	}
	f.samples = f.samples[:n]
	clear(f.vals[n*len(f.labels):])
	f.vals = f.vals[:n*len(f.labels)]
}

// public is the family as a Family, empty or not.
func (f *family) public() *Family {
	out := &Family{Name: f.name, Help: f.help, Type: f.typ, Samples: make([]Sample, len(f.samples))}
	k := len(f.labels)
	for i, v := range f.samples {
		s := &out.Samples[i]
		s.Value = v
		s.Labels = make([]Label, k, k+1)
		for j := range f.labels {
			s.Labels[j] = Label{Name: f.labels[j], Value: f.vals[i*k+j]}
		}
		if b64, ok := f.exact[i]; ok {
			s.Labels = append(s.Labels, Label{Name: ExactGroupLabel, Value: b64})
		}
	}
	return out
}

// labelValue is s as an exposition carries it: unchanged when it is UTF-8
// (the encoder escapes it); otherwise each byte that is not UTF-8 becomes
// one U+FFFD, as encoding/json writes it in `-o json`, so the label and
// the JSON name a group alike.
func labelValue(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteString("\uFFFD")
			i++
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// orNaN is v, or NaN when v is one of the unknown marks (a negative
// rate, an unknown lag).
func orNaN(v float64, known bool) float64 {
	if !known {
		return math.NaN()
	}
	return v
}

func seconds(t lag.TimeLag) float64 {
	if !t.Known() {
		return math.NaN()
	}
	return t.Seconds
}

func rate(r float64) float64 { return orNaN(r, r >= 0) }

// groupFamilies are the groups' families, in exposition order.
type groupFamilies struct {
	info, members, verdict, lag, timeLag, timeSource, produce, consume, findings *family
	topicLag, topicTimeLag                                                       *family
	partLag, partCommitted, partEnd, partTimeLag, partSource                     *family
	// list is all(), made once: lens and count run for every group.
	list []*family
}

func newGroupFamilies(g Granularity) *groupFamilies {
	const G = Gauge
	f := &groupFamilies{
		info:       newFamily("kgroups_group_info", "A consumer group as the latest poll described it: type (classic, consumer, share, streams), state, protocol type, assignor and coordinator broker id. Always 1.", G, "group", "type", "state", "protocol", "assignor", "coordinator"),
		members:    newFamily("kgroups_group_members", "Members of the group.", G, "group"),
		verdict:    newFamily("kgroups_group_verdict", "The group's verdict, as kgroups health and the UI give it: the value is its severity (0 OK, JUDGING or UNKNOWN; 1 WARN; 2 ERR), the status label its status (OK, WARN, NO-COMMITS, STALL, REWIND, STOP, JUDGING, UNKNOWN).", G, "group", "status"),
		lag:        newFamily("kgroups_group_lag_records", "Records the group has not consumed yet, summed over its partitions with a known lag; NaN when no partition's lag is known.", G, "group"),
		timeLag:    newFamily("kgroups_group_time_lag_seconds", "Age of the oldest record the group has not consumed, its worst partition's; NaN when unknown. kgroups_group_time_lag_source says how it was obtained.", G, "group"),
		timeSource: newFamily("kgroups_group_time_lag_source", "How kgroups_group_time_lag_seconds was obtained: 0 unknown, 1 caught up, 2 interpolated, 3 lower bound, 4 exact.", G, "group"),
		produce:    newFamily("kgroups_group_produce_records_per_second", "Records per second produced to the group's partitions over the rate window; NaN until measured.", G, "group"),
		consume:    newFamily("kgroups_group_consume_records_per_second", "Records per second the group committed past over the rate window; NaN until measured.", G, "group"),
		findings:   newFamily("kgroups_group_findings", "Findings of the diagnosis rules for the group (as the groups screen marks them), by finding id and severity.", G, "group", "finding", "severity"),
	}
	if g >= ByTopic {
		f.topicLag = newFamily("kgroups_topic_lag_records", "Records the group has not consumed yet on one topic; NaN when no partition's lag is known.", G, "group", "topic")
		f.topicTimeLag = newFamily("kgroups_topic_time_lag_seconds", "Age of the oldest record the group has not consumed on one topic; NaN when unknown.", G, "group", "topic")
	}
	if g >= ByPartition {
		f.partLag = newFamily("kgroups_partition_lag_records", "Records the group has not consumed yet on one partition; NaN when unknown.", G, "group", "topic", "partition")
		f.partCommitted = newFamily("kgroups_partition_committed_offset", "The group's committed offset on one partition (the share-partition start offset for a share group); absent when none.", G, "group", "topic", "partition")
		f.partEnd = newFamily("kgroups_partition_log_end_offset", "The partition's log end offset (high watermark); absent when unknown.", G, "group", "topic", "partition")
		f.partTimeLag = newFamily("kgroups_partition_time_lag_seconds", "Age of the oldest record the group has not consumed on one partition; NaN when unknown.", G, "group", "topic", "partition")
		f.partSource = newFamily("kgroups_partition_time_lag_source", "How kgroups_partition_time_lag_seconds was obtained: 0 unknown, 1 caught up, 2 interpolated, 3 lower bound, 4 exact.", G, "group", "topic", "partition")
	}
	f.list = []*family{f.info, f.members, f.verdict, f.lag, f.timeLag, f.timeSource, f.produce, f.consume, f.findings}
	for _, x := range []*family{f.topicLag, f.topicTimeLag, f.partLag, f.partCommitted, f.partEnd, f.partTimeLag, f.partSource} {
		if x != nil {
			f.list = append(f.list, x)
		}
	}
	return f
}

func (f *groupFamilies) all() []*family { return f.list }

// sizeFrom compares each family with the same family in prev (a
// rendering before), where it has one of that name and labels: the
// family shares prev's samples while they are the same, and once one
// differs, allocates its own at prev's sizes (family.ref).
func (f *groupFamilies) sizeFrom(prev *Families) {
	for i, x := range f.list {
		if i >= len(prev.fams) {
			return
		}
		p := prev.fams[i]
		if p.name != x.name || !slices.Equal(p.labels, x.labels) {
			continue
		}
		x.ref = p
	}
}

// count is the samples of every family.
func (f *groupFamilies) count() int {
	n := 0
	for _, x := range f.all() {
		n += x.len()
	}
	return n
}

// truncate drops the samples past n[i] of each family i (as all() lists
// them): the series of a group that does not fit.
func (f *groupFamilies) truncate(n []int) {
	for i, x := range f.all() {
		x.truncate(n[i])
	}
}

func (f *groupFamilies) lens(dst []int) []int {
	dst = dst[:0]
	for _, x := range f.all() {
		dst = append(dst, x.len())
	}
	return dst
}

// Families are the groups' families of one rendering, in exposition
// order. names are the groups rendered, in order, and starts[f][k] the
// first sample of group names[k] in family f (one more entry closes the
// last group), so that a Page can tell each group's samples.
type Families struct {
	fams   []*family
	names  []string
	starts [][]int32
}

// newFamilies is the families of f with the groups names, whose samples
// start at starts (one slice a family, each closed by its length).
func newFamilies(f *groupFamilies, names []string, starts [][]int32) *Families {
	all := f.all()
	if starts == nil {
		starts = make([][]int32, len(all))
	}
	for i, x := range all {
		x.done()
		starts[i] = append(starts[i], int32(x.len()))
	}
	return &Families{fams: all, names: names, starts: starts}
}

// List is the families whole, empty ones included.
func (f *Families) List() []*Family { return public(f.fams) }

// AppendText appends the families with samples in the Prometheus text
// format, byte for byte what expfmt writes for List (held by
// TestWriterMatchesExpfmt), without building it.
func (f *Families) AppendText(b []byte) []byte { return appendFamilies(b, f.fams, false) }

// AppendOpenMetrics is AppendText in OpenMetrics 1.0, without "# EOF".
func (f *Families) AppendOpenMetrics(b []byte) []byte { return appendFamilies(b, f.fams, true) }

// Groups renders the groups of snap, the latest poll l judged (its
// verdicts, l.Evaluate's partitions at topic and partition granularity,
// watch.Findings), that o.Filter keeps, up to o.MaxSeries series.
func Groups(snap *kafka.Snapshot, l *lag.Tracker, o Options) (*Families, Stats) {
	var st Stats
	fams := newGroupFamilies(o.Granularity)
	if snap == nil {
		return newFamilies(fams, nil, nil), st
	}
	if o.SizeFrom != nil {
		fams.sizeFrom(o.SizeFrom)
	}
	var (
		buf    []lag.PartitionHealth
		before []int
		counts = map[[2]string]int{}
		keys   [][2]string
		names  []string
		starts = make([][]int32, len(fams.all()))
	)
	if p := o.SizeFrom; p != nil {
		names = make([]string, 0, len(p.names))
		for f := range starts {
			if f < len(p.starts) {
				starts[f] = make([]int32, 0, len(p.starts[f]))
			}
		}
	}
	full := false
	for i := range snap.Groups {
		g := &snap.Groups[i]
		if !o.Filter.Keep(g) {
			continue
		}
		if full {
			st.DroppedGroups++
			st.DroppedSeries += groupSeries(g, o.Granularity)
			continue
		}
		before = fams.lens(before)
		v := l.Group(snap, i)
		name := g.Name
		fams.info.add(1, name, string(g.Type), g.State, g.ProtocolType, g.Assignor, coordinator(g))
		fams.members.add(float64(len(g.Members)), name)
		sev, _ := v.Decided()
		fams.verdict.add(float64(sev), name, Status(&v))
		fams.lag.add(orNaN(float64(v.TotalLag), v.LagKnown), name)
		fams.timeLag.add(seconds(v.MaxTimeLag), name)
		fams.timeSource.add(Source(v.MaxTimeLag), name)
		fams.produce.add(rate(v.ProduceRate), name)
		fams.consume.add(rate(v.ConsumeRate), name)

		fds, b := watch.Findings(snap, l, i, buf)
		buf = b
		clear(counts)
		keys = keys[:0]
		for _, fd := range fds {
			kk := [2]string{fd.ID, fd.Severity.String()}
			if counts[kk] == 0 {
				keys = append(keys, kk)
			}
			counts[kk]++
		}
		sort.Slice(keys, func(a, b int) bool {
			return keys[a][0] < keys[b][0] || keys[a][0] == keys[b][0] && keys[a][1] < keys[b][1]
		})
		for _, k := range keys {
			fams.findings.add(float64(counts[k]), name, k[0], k[1])
		}

		if o.Granularity >= ByTopic {
			if gh, ok := l.Evaluate(name, buf); ok {
				buf = gh.Partitions[:0]
				addPartitions(fams, name, gh.Partitions, o.Granularity)
			}
		}
		if o.MaxSeries > 0 && fams.count() > o.MaxSeries {
			after := fams.count()
			fams.truncate(before)
			full = true
			st.DroppedGroups++
			st.DroppedSeries += after - fams.count()
			st.FirstDropped = name
			continue
		}
		st.Groups++
		names = append(names, name)
		for f, n := range before {
			starts[f] = append(starts[f], int32(n))
		}
	}
	st.Series = fams.count()
	return newFamilies(fams, names, starts), st
}

// groupSeries estimates the series a group left out by the cap would
// have had: its fixed series and, at finer granularities, its topics and
// partitions (findings are not counted: they need the rules).
func groupSeries(g *kafka.Group, gr Granularity) int {
	n := 8
	if gr >= ByTopic {
		n += 2 * len(g.Topics())
	}
	if gr >= ByPartition {
		n += 5 * len(g.Partitions)
	}
	return n
}

func coordinator(g *kafka.Group) string {
	if g.Coordinator.Host == "" && g.Coordinator.ID == 0 {
		return ""
	}
	return strconv.Itoa(int(g.Coordinator.ID))
}

// addPartitions adds a group's topics (and partitions, at ByPartition):
// ps sorted by topic then partition, as lag.GroupHealth holds them.
func addPartitions(f *groupFamilies, group string, ps []lag.PartitionHealth, gr Granularity) {
	for i := 0; i < len(ps); {
		topic := ps[i].Topic
		var sum int64
		known := false
		worst := lag.TimeLag{}
		unknownLagging := false
		j := i
		for ; j < len(ps) && ps[j].Topic == topic; j++ {
			p := &ps[j]
			if p.Lag >= 0 {
				sum += p.Lag
				known = true
			}
			if p.TimeLag.Known() && (!worst.Known() || p.TimeLag.Seconds > worst.Seconds) {
				worst = p.TimeLag
			}
			if p.Lag > 0 && !p.TimeLag.Known() {
				unknownLagging = true
			}
			if gr >= ByPartition {
				part := strconv.Itoa(int(p.Partition))
				f.partLag.add(orNaN(float64(p.Lag), p.Lag >= 0), group, topic, part)
				if p.Committed >= 0 {
					f.partCommitted.add(float64(p.Committed), group, topic, part)
				}
				if p.LogEnd >= 0 {
					f.partEnd.add(float64(p.LogEnd), group, topic, part)
				}
				f.partTimeLag.add(seconds(p.TimeLag), group, topic, part)
				f.partSource.add(Source(p.TimeLag), group, topic, part)
			}
		}
		// As lag.Judge makes a group's maximum honest: a lagging
		// partition of unknown time lag makes the known worst a lower
		// bound, and a caught-up 0s unknown.
		if unknownLagging && worst.Kind == lag.TimeLagCaughtUp {
			worst = lag.TimeLag{}
		}
		f.topicLag.add(orNaN(float64(sum), known), group, topic)
		f.topicTimeLag.add(seconds(worst), group, topic)
		i = j
	}
}

func public(fs []*family) []*Family {
	out := make([]*Family, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.public())
	}
	return out
}
