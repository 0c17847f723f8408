package metrics

import (
	"bytes"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Prometheus' own libraries are the reference for what kgroups writes
// and negotiates; only the tests link them.

var dtoTypes = map[MetricType]dto.MetricType{Counter: dto.MetricType_COUNTER, Gauge: dto.MetricType_GAUGE, Summary: dto.MetricType_SUMMARY}

// toDTO is fs as client_model holds them.
func toDTO(fs []*Family) []*dto.MetricFamily {
	var out []*dto.MetricFamily
	for _, f := range fs {
		d := &dto.MetricFamily{Name: ptr(f.Name), Help: ptr(f.Help), Type: dtoTypes[f.Type].Enum()}
		if f.Unit != "" {
			d.Unit = ptr(f.Unit)
		}
		for _, s := range f.Samples {
			m := &dto.Metric{}
			for _, l := range s.Labels {
				m.Label = append(m.Label, &dto.LabelPair{Name: ptr(l.Name), Value: ptr(l.Value)})
			}
			switch f.Type {
			case Counter:
				m.Counter = &dto.Counter{Value: ptr(s.Value)}
			case Gauge:
				m.Gauge = &dto.Gauge{Value: ptr(s.Value)}
			case Summary:
				m.Summary = &dto.Summary{SampleCount: ptr(s.Count), SampleSum: ptr(s.Value)}
				for _, q := range s.Quantiles {
					m.Summary.Quantile = append(m.Summary.Quantile, &dto.Quantile{Quantile: ptr(q.Quantile), Value: ptr(q.Value)})
				}
			}
			d.Metric = append(d.Metric, m)
		}
		out = append(out, d)
	}
	return out
}

// fromDTO is the families client_model holds as Families.
func fromDTO(t *testing.T, ds []*dto.MetricFamily) []*Family {
	t.Helper()
	var out []*Family
	for _, d := range ds {
		f := &Family{Name: d.GetName(), Help: d.GetHelp(), Unit: d.GetUnit()}
		switch d.GetType() {
		case dto.MetricType_COUNTER:
			f.Type = Counter
		case dto.MetricType_GAUGE:
			f.Type = Gauge
		case dto.MetricType_SUMMARY:
			f.Type = Summary
		default:
			t.Fatalf("%s: type %s", d.GetName(), d.GetType())
		}
		for _, m := range d.Metric {
			var s Sample
			for _, l := range m.Label {
				s.Labels = append(s.Labels, Label{Name: l.GetName(), Value: l.GetValue()})
			}
			switch f.Type {
			case Counter:
				s.Value = m.GetCounter().GetValue()
			case Gauge:
				s.Value = m.GetGauge().GetValue()
			case Summary:
				s.Value, s.Count = m.GetSummary().GetSampleSum(), m.GetSummary().GetSampleCount()
				for _, q := range m.GetSummary().GetQuantile() {
					s.Quantiles = append(s.Quantiles, Quantile{Quantile: q.GetQuantile(), Value: q.GetValue()})
				}
			}
			f.Samples = append(f.Samples, s)
		}
		out = append(out, f)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// expfmtEncode writes fs in format with expfmt's encoder, leaving out the
// families without samples and the closing "# EOF", as Encode does.
func expfmtEncode(t *testing.T, w *bytes.Buffer, format Format, fs []*Family) {
	t.Helper()
	enc := expfmt.NewEncoder(w, expfmt.Format(format))
	for _, d := range toDTO(fs) {
		if len(d.Metric) == 0 {
			continue
		}
		if err := enc.Encode(d); err != nil {
			t.Fatalf("expfmt: %s: %v", d.GetName(), err)
		}
	}
}

// oddFamilies are families with every value, label value, HELP text and
// type the encoder can meet.
func oddFamilies() []*Family {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, -2, 1e21, 1e-21, 123456789, 1.0e-7, 5e-324, math.MaxFloat64, -math.MaxFloat64,
		math.NaN(), math.Inf(1), math.Inf(-1), 42, 3.14159, float64(1 << 53), float64(1<<53 + 2), 1e15, 1e16, 0.1 + 0.2, float64(math.MaxUint64)}
	labels := []string{"", "plain", "a\"b\\c\nd\te}{,=", "\\\\n", "\"\"", "é日本語🙂", "\r\x00\x7f", "line\n", "\\"}
	gauge := &Family{Name: "kgroups_test_values", Help: "help with \\ back\nslash and \"quotes\" and é", Type: Gauge}
	counter := &Family{Name: "kgroups_test_events_total", Help: "a counter \"quoted\"", Type: Counter}
	for i, v := range values {
		l := labels[i%len(labels)]
		gauge.Samples = append(gauge.Samples, Sample{Labels: []Label{{"group", l}, {"x", strings.Repeat("é", i)}}, Value: v})
		if v >= 0 || math.IsNaN(v) {
			counter.Samples = append(counter.Samples, Sample{Labels: []Label{{"kind", l}}, Value: v})
		}
	}
	return []*Family{
		gauge, counter,
		{Name: "kgroups_test_seconds", Help: "", Type: Gauge, Samples: []Sample{{Value: 7}}},
		{Name: "kgroups_test_untotalled", Help: "a counter without _total", Type: Counter, Samples: []Sample{{Value: 3}, {Labels: []Label{{"a", "b"}}, Value: 0}}},
		{Name: "kgroups_test_empty", Help: "no samples", Type: Gauge},
		{Name: "kgroups_test_empty_total", Help: "no samples", Type: Counter},
		{Name: "kgroups_test_bytes", Help: "with a unit", Unit: "bytes", Type: Gauge, Samples: []Sample{{Value: 1 << 40}}},
		{Name: "kgroups_test_odd_unit", Help: "a unit to escape", Unit: "a\"b\\c\nd", Type: Gauge, Samples: []Sample{{Value: 1}}},
		{Name: "kgroups_test_requests_total", Help: "a counter with a unit", Unit: "requests", Type: Counter, Samples: []Sample{{Value: 12}}},
		{Name: "kgroups_test_pause_seconds", Help: "a summary", Type: Summary, Samples: []Sample{
			{Value: 0.000537344, Count: 1, Quantiles: []Quantile{{0, 0.000537344}, {0.25, 1e-9}, {0.5, 0}, {0.75, math.NaN()}, {1, 2.5}}},
			{Labels: []Label{{"kind", "x\"y"}}, Value: 0, Count: 1234567890123, Quantiles: []Quantile{{0.99, 1}, {0.999, math.Inf(1)}}},
			{Labels: []Label{{"kind", "none"}}, Value: 1e21, Count: 0},
		}},
		{Name: "kgroups_test_empty_summary", Help: "a summary without samples", Type: Summary},
	}
}

// TestEncodeMatchesExpfmt: Encode writes, byte for byte, what expfmt's
// encoders write for the same families, in both formats: odd values,
// label values and HELP texts, units, summaries, the exporter's own
// families and the process's and runtime's as the collectors gather them.
func TestEncodeMatchesExpfmt(t *testing.T) {
	e := Exporter{Version: "1.2.3\n\"x\"", GoVersion: "go1.26", PollSuccess: true, PollDuration: 1234567 * time.Microsecond,
		LastSuccess: time.Unix(1796305889, 318486200), Polls: 1 << 40, Errors: map[string]uint64{"poll": 1, "odd\\kind": 2}, Dropped: 9, MaxSeries: 100}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	gathered, _ := reg.Gather() // what a system lets the collectors read is enough here
	sets := map[string][]*Family{
		"odd": oddFamilies(), "exporter": e.Families(), "self": Self(), "collectors": fromDTO(t, gathered),
		"exporter before any poll": (&Exporter{}).Families(),
	}
	for name, fs := range sets {
		for _, format := range []Format{TextFormat, OpenMetricsFormat} {
			var want, got bytes.Buffer
			expfmtEncode(t, &want, format, fs)
			if err := Encode(&got, format, fs); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				gl, wl := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("%s, %s: line %d is %q, expfmt writes %q", name, format, i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s, %s: %d lines, expfmt writes %d", name, format, len(gl), len(wl))
			}
		}
	}
}

// TestNegotiateAsExpfmt: the format and its Content-Type are the ones
// expfmt.NegotiateAccept picks between OpenMetrics 1.0.0 and the text
// format for the same Accept header: Prometheus' own headers, odd ones,
// and random ones of up to twelve clauses.
func TestNegotiateAsExpfmt(t *testing.T) {
	if string(TextFormat) != string(expfmt.FmtText) || string(OpenMetricsFormat) != string(expfmt.FmtOpenMetrics_1_0_0) {
		t.Fatalf("Content-Types %q and %q, expfmt's %q and %q", TextFormat, OpenMetricsFormat, expfmt.FmtText, expfmt.FmtOpenMetrics_1_0_0)
	}
	headers := []string{
		"", "*/*", "text/plain", "application/openmetrics-text", "application/openmetrics-text;version=1.0.0",
		// Prometheus 2.x and 3.x scrape protocols.
		"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8,application/openmetrics-text;version=0.0.1;q=0.9,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.8,text/plain;version=0.0.4;q=0.7,*/*;q=0.6",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1",
		"application/openmetrics-text; version=1.0.0; charset=utf-8",
		"text/plain;version=0.0.4;q=0.5,application/openmetrics-text;version=1.0.0;q=0.6",
		"text/plain;version=0.0.4;q=0.6,application/openmetrics-text;version=1.0.0;q=0.5",
		"text/plain;version=0.0.4,application/openmetrics-text;version=1.0.0",
		"application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4",
		"*/*;version=1.0.0", "application/*;version=1.0.0", "*/*;q=0.9,application/openmetrics-text;version=1.0.0;q=0.1",
		"application/openmetrics-text;version=1.0.0;q=0", "application/openmetrics-text;version=1.0.0;q=x,text/plain",
		"application/openmetrics-text;version=1.0.0;q=1e999,text/plain", "application/openmetrics-text;version=1.0.0=,text/plain;q=0.1",
		"application/openmetrics-text/;version=1.0.0", "application/openmetrics-text/x;version=1.0.0", "*;version=1.0.0",
		"application/openmetrics-text;version= 1.0.0 ", " application/openmetrics-text ; version=1.0.0", "application/openmetrics-text;version=2.0.0",
		"application/openmetrics-text;q=0.9;version=1.0.0,text/plain;version=0.0.4;q= 0.95", "text/html,application/openmetrics-text;version=1.0.0",
		"text/plain;version=1.0.0,application/openmetrics-text;version=1.0.0;q=0.1", ",,;;,", "application/openmetrics-text;version=1.0.0,*",
	}
	types := []string{"application/openmetrics-text", "text/plain", "*/*", "application/*", "text/*", "*", "text/html", "application/json", "*/plain", "application/openmetrics-text/", ""}
	params := []string{"", ";version=1.0.0", ";version=0.0.1", ";version=0.0.4", ";version=2.0.0", ";charset=utf-8", ";escaping=underscores", ";version=1.0.0;charset=utf-8", ";version"}
	qs := []string{"", "", ";q=1", ";q=0.9", ";q=0.5", ";q=0.1", ";q=0", ";q=abc", ";q=0.50", ";q=.5"}
	r := rand.New(rand.NewPCG(36, 1))
	for range 20000 {
		var cs []string
		for range 1 + r.IntN(12) {
			cs = append(cs, types[r.IntN(len(types))]+params[r.IntN(len(params))]+qs[r.IntN(len(qs))])
		}
		headers = append(headers, strings.Join(cs, ","))
	}
	for _, h := range headers {
		want := expfmt.NegotiateAccept(http.Header{"Accept": {h}}, expfmt.FmtOpenMetrics_1_0_0, expfmt.FmtText)
		wantOM := want.FormatType() == expfmt.TypeOpenMetrics
		if got := Negotiate(h); got.OpenMetrics() != wantOM {
			t.Fatalf("Accept %q: %q, expfmt picks %q", h, got, want)
		}
	}
}

// TestSelfAsTheCollectors: the process's and the runtime's families are
// those of Prometheus' Go and process collectors (client_golang's
// defaults, which kgroups served before it wrote its own): the same
// families in the same order with the same HELP, TYPE, UNIT and labels,
// in both formats; only the values differ, read a moment apart, and
// those are checked to make sense.
func TestSelfAsTheCollectors(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	gathered, err := reg.Gather()
	if err != nil {
		t.Skipf("the collectors cannot read every family on this system: %v", err)
	}
	ours := Self()
	if runtime.GOOS != "linux" {
		t.Skipf("the process's families are read on Linux only")
	}
	for _, format := range []Format{TextFormat, OpenMetricsFormat} {
		var want, got bytes.Buffer
		enc := expfmt.NewEncoder(&want, expfmt.Format(format))
		for _, d := range gathered {
			if err := enc.Encode(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := Encode(&got, format, ours); err != nil {
			t.Fatal(err)
		}
		if g, w := withoutValues(got.String()), withoutValues(want.String()); !slices.Equal(g, w) {
			t.Errorf("%s: the families differ from the collectors'\nours:\n%s\nthe collectors':\n%s", format, strings.Join(g, "\n"), strings.Join(w, "\n"))
		}
	}

	theirs := map[string]float64{}
	for _, d := range gathered {
		if len(d.Metric) == 1 && d.GetType() != dto.MetricType_SUMMARY {
			theirs[d.GetName()] = d.Metric[0].GetGauge().GetValue() + d.Metric[0].GetCounter().GetValue()
		}
	}
	got := map[string]float64{}
	for _, f := range ours {
		if f.Type != Summary {
			got[f.Name] = f.Samples[0].Value
		}
	}
	// Settings and what does not change while the test runs are equal.
	for _, name := range []string{"go_gc_gogc_percent", "go_gc_gomemlimit_bytes", "go_sched_gomaxprocs_threads", "process_max_fds",
		"process_virtual_memory_max_bytes", "process_start_time_seconds", "go_info"} {
		if got[name] != theirs[name] {
			t.Errorf("%s = %v, the collector's %v", name, got[name], theirs[name])
		}
	}
	if got["go_sched_gomaxprocs_threads"] != float64(runtime.GOMAXPROCS(0)) {
		t.Errorf("go_sched_gomaxprocs_threads = %v, GOMAXPROCS %d", got["go_sched_gomaxprocs_threads"], runtime.GOMAXPROCS(0))
	}
	if v := ours[slices.IndexFunc(ours, func(f *Family) bool { return f.Name == "go_info" })].Samples[0].Labels[0].Value; v != runtime.Version() {
		t.Errorf("go_info version %q, want %q", v, runtime.Version())
	}
	start := time.Unix(0, int64(got["process_start_time_seconds"]*1e9))
	if time.Since(start) < 0 || time.Since(start) > time.Hour {
		t.Errorf("process_start_time_seconds %v: not within the last hour", start)
	}
	// Values that move are near the collector's, read a moment before.
	near := func(name string, lo, hi float64) {
		if v := got[name]; !(v >= lo && v <= hi) {
			t.Errorf("%s = %v, want within [%v, %v] (the collector's %v)", name, v, lo, hi, theirs[name])
		}
	}
	for _, name := range []string{"process_resident_memory_bytes", "process_virtual_memory_bytes", "go_memstats_sys_bytes", "go_memstats_heap_sys_bytes"} {
		near(name, theirs[name]/2, theirs[name]*2)
	}
	near("process_resident_memory_bytes", 1<<20, 1<<40)
	near("go_goroutines", 1, 1e6)
	near("go_threads", 1, 1e5)
	near("process_open_fds", 3, got["process_max_fds"])
	near("process_cpu_seconds_total", theirs["process_cpu_seconds_total"], theirs["process_cpu_seconds_total"]+600)
	near("go_memstats_alloc_bytes_total", theirs["go_memstats_alloc_bytes_total"], math.Inf(1))
	near("go_memstats_mallocs_total", theirs["go_memstats_mallocs_total"], math.Inf(1))
	near("go_memstats_frees_total", theirs["go_memstats_frees_total"], got["go_memstats_mallocs_total"])
	near("go_memstats_heap_alloc_bytes", 1, got["go_memstats_heap_sys_bytes"])
	near("go_memstats_heap_inuse_bytes", got["go_memstats_heap_alloc_bytes"], got["go_memstats_heap_sys_bytes"])
	near("process_network_receive_bytes_total", theirs["process_network_receive_bytes_total"], math.Inf(1))
	near("process_network_transmit_bytes_total", theirs["process_network_transmit_bytes_total"], math.Inf(1))
	runtime.GC()
	var gcs *Family
	for _, f := range Self() {
		if f.Name == "go_gc_duration_seconds" {
			gcs = f
		}
	}
	if s := gcs.Samples[0]; s.Count < 1 || s.Value <= 0 || len(s.Quantiles) != 5 || s.Quantiles[4].Value < s.Quantiles[0].Value {
		t.Errorf("go_gc_duration_seconds after a GC: %+v", s)
	}
}

// withoutValues is an exposition's lines with each sample's value
// replaced by V.
func withoutValues(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "#") {
			lines[i] = l[:strings.LastIndexByte(l, ' ')] + " V"
		}
	}
	return lines
}
