package metrics

import (
	"bytes"
	"io"
	"sort"
	"strconv"
	"time"
)

// MetricType is a family's type.
type MetricType uint8

// The types of the families kgroups serves.
const (
	Counter MetricType = iota
	Gauge
	Summary
)

// Family is a metric family whole: the exporter's own and the
// process's. The groups' families, which hold hundreds of thousands of
// samples, are written from their columns instead (Families).
type Family struct {
	Name, Help string
	// Unit, when set, is written in OpenMetrics as the family's UNIT.
	Unit    string
	Type    MetricType
	Samples []Sample
}

// Sample is one series of a family.
type Sample struct {
	Labels []Label
	// Value is a counter's or a gauge's value, a summary's sum.
	Value float64
	// Quantiles and Count are a summary's.
	Quantiles []Quantile
	Count     uint64
}

// Label is a label's name and value.
type Label struct{ Name, Value string }

// Quantile is a summary's value at a quantile.
type Quantile struct{ Quantile, Value float64 }

// Encode writes fams in format, without OpenMetrics's closing "# EOF"
// (Tail writes it), so that the bytes can be cached and a scrape add
// what changes by the second. Families without samples are left out.
// The bytes are those Prometheus' expfmt encoders write for the same
// families (TestEncodeMatchesExpfmt).
func Encode(w io.Writer, format Format, fams ...[]*Family) error {
	var b []byte
	for _, fs := range fams {
		for _, f := range fs {
			b = f.append(b, format.OpenMetrics())
		}
	}
	_, err := w.Write(b)
	return err
}

// Tail is what a scrape appends to the cached bytes: how old the served
// values are (kgroups_last_poll_age_seconds, since the poll they come
// from started; NaN before any), then "# EOF" for OpenMetrics.
func Tail(format Format, lastPoll, now time.Time) []byte {
	var b bytes.Buffer
	age := "NaN"
	if !lastPoll.IsZero() {
		age = strconv.FormatFloat(now.Sub(lastPoll).Seconds(), 'g', -1, 64)
	}
	b.WriteString("# HELP kgroups_last_poll_age_seconds Seconds since the poll the served values come from started; it grows while polls fail.\n")
	b.WriteString("# TYPE kgroups_last_poll_age_seconds gauge\n")
	b.WriteString("kgroups_last_poll_age_seconds " + age + "\n")
	if format.OpenMetrics() {
		b.WriteString("# EOF\n")
	}
	return b.Bytes()
}

// Exporter is the exporter's own state, rendered with every poll.
type Exporter struct {
	Version, GoVersion string
	// PollSuccess reports whether the latest poll succeeded.
	PollSuccess bool
	// PollDuration is the latest poll's, judging and exact reads
	// included.
	PollDuration time.Duration
	// LastSuccess is when the latest successful poll started (zero
	// before any).
	LastSuccess time.Time
	// Polls counts the polls tried; Errors the failures by kind.
	Polls  uint64
	Errors map[string]uint64
	// Dropped counts the series the cap left out, over every poll.
	Dropped uint64
	// Stats is the latest rendering's.
	Stats Stats
	// MaxSeries is the series cap in force.
	MaxSeries int
	// Reloads counts the configuration reloads tried (SIGHUP);
	// ReloadFailed reports that the latest failed, so the settings in
	// force are older than the file.
	Reloads      uint64
	ReloadFailed bool
}

// ErrorKinds are the kinds of kgroups_poll_errors_total, each always
// exported (from 0) so that rate() sees the first error.
var ErrorKinds = []string{"poll", "timeout", "group", "exact_read"}

// Families renders e.
func (e *Exporter) Families() []*Family {
	const G, C = Gauge, Counter
	build := newFamily("kgroups_build_info", "The running kgroups: its version and the Go version it was built with. Always 1.", G, "version", "goversion")
	build.add(1, e.Version, e.GoVersion)
	success := newFamily("kgroups_poll_success", "1 when the latest poll of the cluster succeeded, 0 when it failed: the other values are then the last successful poll's (see kgroups_last_poll_age_seconds).", G)
	success.add(b2f(e.PollSuccess))
	dur := newFamily("kgroups_poll_duration_seconds", "How long the latest poll took, judging and exact time-lag reads included.", G)
	dur.add(e.PollDuration.Seconds())
	last := newFamily("kgroups_last_poll_success_timestamp_seconds", "When the latest successful poll started, in Unix seconds; 0 before any.", G)
	ts := 0.0
	if !e.LastSuccess.IsZero() {
		ts = float64(e.LastSuccess.UnixNano()) / 1e9
	}
	last.add(ts)
	polls := newFamily("kgroups_polls_total", "Polls of the cluster tried.", C)
	polls.add(float64(e.Polls))
	errs := newFamily("kgroups_poll_errors_total", "Failures by kind: poll (the poll failed), timeout (it ran out of time), group (a group's description or offsets could not be read), exact_read (records at commits could not be read; time lags stay lower bounds).", C, "kind")
	kinds := append([]string(nil), ErrorKinds...)
	for k := range e.Errors {
		if !contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		errs.add(float64(e.Errors[k]), k)
	}
	dropped := newFamily("kgroups_series_dropped_total", "Series left out because the series cap (--max-series) was reached, summed over polls.", C)
	dropped.add(float64(e.Dropped))
	series := newFamily("kgroups_series", "Series of the groups' families in the latest rendering.", G)
	series.add(float64(e.Stats.Series))
	groups := newFamily("kgroups_groups_exported", "Groups exported in the latest rendering (after the group filters and the series cap).", G)
	groups.add(float64(e.Stats.Groups))
	gdropped := newFamily("kgroups_groups_dropped", "Groups the series cap left out of the latest rendering.", G)
	gdropped.add(float64(e.Stats.DroppedGroups))
	limit := newFamily("kgroups_max_series", "The series cap in force (0: none).", G)
	limit.add(float64(e.MaxSeries))
	reload := newFamily("kgroups_config_reload_success", "1 unless the latest configuration reload (SIGHUP) failed; then 0, and the settings in force are those from before it.", G)
	reload.add(b2f(!e.ReloadFailed))
	reloads := newFamily("kgroups_config_reloads_total", "Configuration reloads tried (SIGHUP).", C)
	reloads.add(float64(e.Reloads))
	return public([]*family{build, success, dur, last, polls, errs, dropped, series, groups, gdropped, limit, reload, reloads})
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
