package metrics

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// judged feeds polls to a tracker, as watch.Loop does, and returns the
// last.
func judged(polls ...*kafka.Snapshot) (*kafka.Snapshot, *lag.Tracker) {
	l := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
	for _, s := range polls {
		l.Add(s)
	}
	return polls[len(polls)-1], l
}

func parse(t *testing.T, body []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the exposition does not parse: %v\n%s", err, body)
	}
	return fams
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.Label {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return "<none>"
}

func encodeText(t *testing.T, fams []*Family) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, TextFormat, fams); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHostileGroupIDs: group ids with every character the exposition
// escapes, and bytes that are not UTF-8, come back from a parser as the
// broker sent them (the invalid bytes as U+FFFD), and the other groups'
// series are untouched.
func TestHostileGroupIDs(t *testing.T) {
	names := []string{"a\"quote", "back\\slash", "new\nline", "tab\there", "\x1b[31mred\x1b[0m", "bad\xff\xfeutf8", "} 1\nfake_metric 2", "ok"}
	snap := &kafka.Snapshot{Time: fixture.Epoch}
	for _, n := range names {
		snap.Groups = append(snap.Groups, kafka.Group{Name: n, Type: kafka.TypeClassic, State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{fixture.Part("t\"\n", 0, 5, 0, 9, nil)}})
	}
	// The snapshot's groups are sorted by name, as a poll's are.
	sortGroups(snap)
	snap2 := *snap
	snap2.Time = snap.Time.Add(time.Second)
	s, l := judged(snap, &snap2)
	fams, st := Groups(s, l, Options{Granularity: ByPartition})
	if st.Groups != len(names) {
		t.Fatalf("rendered %d groups, want %d", st.Groups, len(names))
	}
	got := parse(t, fams.AppendText(nil))
	if _, ok := got["fake_metric"]; ok {
		t.Fatal("a group id injected a metric")
	}
	lagFam := got["kgroups_group_lag_records"]
	if lagFam == nil || len(lagFam.Metric) != len(names) {
		t.Fatalf("kgroups_group_lag_records: %v", lagFam)
	}
	seen := map[string]float64{}
	for _, m := range lagFam.Metric {
		seen[label(m, "group")] = m.GetGauge().GetValue()
	}
	for _, n := range names {
		want := n
		if n == "bad\xff\xfeutf8" {
			want = "bad\uFFFD\uFFFDutf8" // one U+FFFD a byte, as -o json
		}
		if v, ok := seen[want]; !ok || v != 4 {
			t.Errorf("group %q: lag %v (present %v), want 4; seen %v", n, v, ok, seen)
		}
	}
	for _, m := range got["kgroups_partition_lag_records"].Metric {
		if label(m, "topic") != "t\"\n" {
			t.Errorf("topic label %q", label(m, "topic"))
		}
	}
	// OpenMetrics too: the same values parse from its bytes (the text
	// parser reads OpenMetrics's sample lines; only the counters'
	// naming differs, and there are none among the groups' families).
	om := bytes.NewBuffer(fams.AppendOpenMetrics(nil))
	if !strings.Contains(om.String(), `group="a\"quote"`) || !strings.Contains(om.String(), `group="new\nline"`) {
		t.Errorf("OpenMetrics did not escape the label values:\n%s", om.String())
	}
}

func sortGroups(s *kafka.Snapshot) {
	gs := s.Groups
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && gs[j].Name < gs[j-1].Name; j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

// TestSeriesCap: past the cap, whole groups are left out in name order
// and counted; without a cap every group is rendered.
func TestSeriesCap(t *testing.T) {
	s, l := judged(fixture.ManyGroups(10))
	_, all := Groups(s, l, Options{})
	if all.Groups != 10 || all.DroppedGroups != 0 {
		t.Fatalf("no cap: %+v", all)
	}
	per := all.Series / 10
	fams, st := Groups(s, l, Options{MaxSeries: 3*per + per/2})
	if st.Groups != 3 || st.DroppedGroups != 7 || st.Series != 3*per || st.FirstDropped != "group-00003" {
		t.Fatalf("cap of 3.5 groups: %+v (a group has %d series)", st, per)
	}
	if st.DroppedSeries != 7*per {
		t.Errorf("dropped %d series, want %d", st.DroppedSeries, 7*per)
	}
	got := parse(t, fams.AppendText(nil))
	for _, m := range got["kgroups_group_info"].Metric {
		if g := label(m, "group"); g > "group-00002" {
			t.Errorf("group %s rendered past the cap", g)
		}
	}
}

// TestFilterAndGranularity: allow, deny and skip-empty choose the groups;
// topic and partition granularity add their families.
func TestFilterAndGranularity(t *testing.T) {
	s, l := judged(fixture.ManyGroups(8))
	f, err := CompileFilter([]string{"group-0000[0-5]"}, []string{"group-00001"}, true)
	if err != nil {
		t.Fatal(err)
	}
	fams, st := Groups(s, l, Options{Filter: f, Granularity: ByPartition})
	// ManyGroups: every fourth group from the third is Empty.
	if st.Groups != 4 {
		t.Fatalf("%d groups, want 4 (0, 3, 4, 5)", st.Groups)
	}
	got := parse(t, fams.AppendText(nil))
	var groups []string
	for _, m := range got["kgroups_group_info"].Metric {
		groups = append(groups, label(m, "group"))
	}
	if strings.Join(groups, ",") != "group-00000,group-00003,group-00004,group-00005" {
		t.Errorf("groups %v", groups)
	}
	if n := len(got["kgroups_partition_lag_records"].Metric); n != 16 {
		t.Errorf("%d partition lags, want 16", n)
	}
	if n := len(got["kgroups_topic_lag_records"].Metric); n != 4 {
		t.Errorf("%d topic lags, want 4", n)
	}
	// group-00003: 4 partitions 7 apart: lags 0, 7, 14, 21.
	for _, m := range got["kgroups_topic_lag_records"].Metric {
		if label(m, "group") == "group-00003" && m.GetGauge().GetValue() != 42 {
			t.Errorf("group-00003's topic lag %v, want 42", m.GetGauge().GetValue())
		}
	}
	if _, err := CompileFilter([]string{"("}, nil, false); err == nil || !strings.Contains(err.Error(), `invalid allow pattern "("`) {
		t.Errorf("bad pattern: %v", err)
	}
	if _, err := ParseGranularity("cluster"); err == nil || !strings.Contains(err.Error(), "accepted: group, topic, partition") {
		t.Errorf("bad granularity: %v", err)
	}
}

// TestVerdictAndTimeLag: the verdict series carries the tracker's verdict
// (value its severity, status its label), and a time lag its source.
func TestVerdictAndTimeLag(t *testing.T) {
	var polls []*kafka.Snapshot
	for i := range 12 {
		polls = append(polls, fixture.Evolving(i))
	}
	s, l := judged(polls...)
	fams, _ := Groups(s, l, Options{})
	got := parse(t, fams.AppendText(nil))
	verdicts := map[string]*dto.Metric{}
	for _, m := range got["kgroups_group_verdict"].Metric {
		verdicts[label(m, "group")] = m
	}
	for i := range s.Groups {
		v := l.Group(s, i)
		m := verdicts[s.Groups[i].Name]
		sev, _ := v.Decided()
		if m == nil || label(m, "status") != Status(&v) || m.GetGauge().GetValue() != float64(sev) {
			t.Errorf("%s: verdict %v, want %s %d", s.Groups[i].Name, m, Status(&v), sev)
		}
	}
	times := map[string]float64{}
	for _, m := range got["kgroups_group_time_lag_seconds"].Metric {
		times[label(m, "group")] = m.GetGauge().GetValue()
	}
	sources := map[string]float64{}
	for _, m := range got["kgroups_group_time_lag_source"].Metric {
		sources[label(m, "group")] = m.GetGauge().GetValue()
	}
	for i := range s.Groups {
		v := l.Group(s, i)
		name := s.Groups[i].Name
		switch {
		case !v.MaxTimeLag.Known():
			if !math.IsNaN(times[name]) || sources[name] != SourceUnknown {
				t.Errorf("%s: unknown time lag exported as %v (source %v)", name, times[name], sources[name])
			}
		case times[name] != v.MaxTimeLag.Seconds || sources[name] != Source(v.MaxTimeLag):
			t.Errorf("%s: time lag %v source %v, want %v %v", name, times[name], sources[name], v.MaxTimeLag.Seconds, Source(v.MaxTimeLag))
		}
	}
}

// TestExporterFamiliesAndTail: the exporter's own series, and the tail
// every scrape adds.
func TestExporterFamiliesAndTail(t *testing.T) {
	e := Exporter{Version: "1.2.3", GoVersion: "go1.26", Polls: 3, Errors: map[string]uint64{"poll": 1}, Dropped: 9, MaxSeries: 100}
	body := encodeText(t, e.Families())
	body = append(body, Tail(TextFormat, fixture.Epoch, fixture.Epoch.Add(1500*time.Millisecond))...)
	got := parse(t, body)
	checks := map[string]float64{
		"kgroups_poll_success": 0, "kgroups_polls_total": 3, "kgroups_series_dropped_total": 9,
		"kgroups_last_poll_age_seconds": 1.5, "kgroups_max_series": 100,
	}
	for name, want := range checks {
		f := got[name]
		if f == nil || len(f.Metric) != 1 {
			t.Errorf("%s missing", name)
			continue
		}
		m := f.Metric[0]
		v := m.GetGauge().GetValue()
		if f.GetType() == dto.MetricType_COUNTER {
			v = m.GetCounter().GetValue()
		}
		if v != want {
			t.Errorf("%s = %v, want %v", name, v, want)
		}
	}
	errs := map[string]float64{}
	for _, m := range got["kgroups_poll_errors_total"].Metric {
		errs[label(m, "kind")] = m.GetCounter().GetValue()
	}
	if len(errs) != len(ErrorKinds) || errs["poll"] != 1 || errs["timeout"] != 0 {
		t.Errorf("poll errors %v", errs)
	}
	if !bytes.HasSuffix(Tail(OpenMetricsFormat, time.Time{}, fixture.Epoch), []byte("kgroups_last_poll_age_seconds NaN\n# EOF\n")) {
		t.Error("the OpenMetrics tail must end with # EOF")
	}
	if Negotiate("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5") != OpenMetricsFormat || Negotiate("") != TextFormat {
		t.Error("negotiation")
	}
}

// TestWriterMatchesExpfmt: the groups' writer gives, byte for byte, what
// expfmt's encoders give for the same families, in both formats, with
// every value and label value the renderer can meet.
func TestWriterMatchesExpfmt(t *testing.T) {
	var polls []*kafka.Snapshot
	for i := range 12 {
		polls = append(polls, fixture.Evolving(i))
	}
	s, l := judged(polls...)
	fams, _ := Groups(s, l, Options{Granularity: ByPartition})
	odd := newFamily("kgroups_test_values", "help with \\ back\nslash and \"quotes\"", Gauge, "group", "x")
	for i, v := range []float64{0, 1, -1, 0.5, 1e21, 123456789, 1.0e-7, -3, math.NaN(), math.Inf(1), math.Inf(-1), 42, 3.14159, float64(1 << 53)} {
		odd.add(v, "a\"b\\c\nd\te}{,=", strings.Repeat("é", i))
	}
	counter := newFamily("kgroups_test_total", "a counter", Counter)
	counter.add(7)
	fams.fams = append(fams.fams, odd, counter, newFamily("kgroups_test_empty", "no samples", Gauge, "group"))
	for _, format := range []Format{TextFormat, OpenMetricsFormat} {
		var want bytes.Buffer
		expfmtEncode(t, &want, format, fams.List())
		var got []byte
		if format == TextFormat {
			got = fams.AppendText(nil)
		} else {
			got = fams.AppendOpenMetrics(nil)
		}
		if !bytes.Equal(got, want.Bytes()) {
			gl, wl := strings.Split(string(got), "\n"), strings.Split(want.String(), "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Fatalf("%s: line %d is %q, expfmt writes %q", format, i+1, gl[i], wl[i])
				}
			}
			t.Fatalf("%s: %d lines, expfmt writes %d", format, len(gl), len(wl))
		}
	}
}

// TestGroupIDsThatAreNotUTF8: each byte that is not UTF-8 becomes one
// U+FFFD in the group label, as encoding/json writes it in -o json, and
// such a group's series also carry group_base64, its exact id: "coll\xff",
// "coll\xfe" and a group really named "coll\uFFFD" are three series, not
// one that Prometheus would keep once.
func TestGroupIDsThatAreNotUTF8(t *testing.T) {
	names := []string{"coll\xff", "coll\xfe", "coll\uFFFD", "run\xff\xfe\xfd"}
	snap := &kafka.Snapshot{Time: fixture.Epoch}
	for _, n := range names {
		snap.Groups = append(snap.Groups, kafka.Group{Name: n, Type: kafka.TypeClassic, State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{fixture.Part("t", 0, 5, 0, 9, nil)}})
	}
	sortGroups(snap)
	snap2 := *snap
	snap2.Time = snap.Time.Add(time.Second)
	s, l := judged(snap, &snap2)
	fams, _ := Groups(s, l, Options{Granularity: ByPartition})
	text := fams.AppendText(nil)
	for _, want := range []string{
		"kgroups_group_lag_records{group=\"coll\uFFFD\",group_base64=\"Y29sbP8=\"} 4\n",
		"kgroups_group_lag_records{group=\"coll\uFFFD\",group_base64=\"Y29sbP4=\"} 4\n",
		"kgroups_group_lag_records{group=\"coll\uFFFD\"} 4\n",
		"kgroups_group_lag_records{group=\"run\uFFFD\uFFFD\uFFFD\",group_base64=\"cnVu//79\"} 4\n",
		"kgroups_partition_lag_records{group=\"coll\uFFFD\",topic=\"t\",partition=\"0\",group_base64=\"Y29sbP8=\"} 4\n",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	// The label is the JSON's string, byte for byte.
	for _, n := range names {
		js, _ := json.Marshal(n)
		var fromJSON string
		_ = json.Unmarshal(js, &fromJSON)
		if !bytes.Contains(text, []byte(`{group="`+fromJSON+`"`)) {
			t.Errorf("%q: no series labelled as -o json writes it, %q", n, fromJSON)
		}
	}
	// Every series is distinct, in both formats.
	for _, om := range []bool{false, true} {
		var body []byte
		if om {
			body = fams.AppendOpenMetrics(nil)
		} else {
			body = text
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(string(body), "\n") {
			if !strings.HasPrefix(line, "kgroups_group_lag_records{") {
				continue
			}
			series := line[:strings.LastIndex(line, " ")]
			if seen[series] {
				t.Errorf("series %s twice (OpenMetrics %v)", series, om)
			}
			seen[series] = true
		}
		if len(seen) != len(names) {
			t.Errorf("%d lag series, want %d (OpenMetrics %v)", len(seen), len(names), om)
		}
	}
}

// TestRateFamiliesNameTheirUnit: a family measured per second says so in
// its name, as Prometheus' naming rules ask (the base unit, plural, in the
// name), and the rates are the tracker's.
func TestRateFamiliesNameTheirUnit(t *testing.T) {
	var polls []*kafka.Snapshot
	for i := range 12 {
		polls = append(polls, fixture.Evolving(i))
	}
	s, l := judged(polls...)
	fams, _ := Groups(s, l, Options{Granularity: ByPartition})
	e := Exporter{Version: "1.2.3", GoVersion: "go1.26"}
	for _, f := range append(fams.List(), e.Families()...) {
		perSecond := strings.Contains(strings.ToLower(f.Help), "per second")
		if perSecond != strings.HasSuffix(f.Name, "_per_second") {
			t.Errorf("%s: help %q; a rate's name ends in _per_second, and only a rate's", f.Name, f.Help)
		}
	}
	got := parse(t, fams.AppendText(nil))
	for _, name := range []string{"kgroups_group_produce_records_per_second", "kgroups_group_consume_records_per_second"} {
		f := got[name]
		if f == nil || len(f.Metric) != len(s.Groups) {
			t.Fatalf("%s: %v, want one series a group", name, f)
		}
		for _, m := range f.Metric {
			i := -1
			for j := range s.Groups {
				if s.Groups[j].Name == label(m, "group") {
					i = j
				}
			}
			v := l.Group(s, i)
			want := v.ProduceRate
			if strings.Contains(name, "consume") {
				want = v.ConsumeRate
			}
			if got := m.GetGauge().GetValue(); got != rate(want) && !(math.IsNaN(got) && math.IsNaN(rate(want))) {
				t.Errorf("%s{group=%q} = %v, want %v", name, label(m, "group"), got, rate(want))
			}
		}
	}
}
