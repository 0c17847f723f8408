package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render/metrics"
)

// shutdownGrace is how long a signal lets scrapes in flight finish
// before the server closes: SIGTERM stops serve within a second.
const shutdownGrace = 800 * time.Millisecond

// exporter is `kgroups serve`'s state: the judged polls (watch.Loop over
// a lag.Tracker) and the exposition rendered from the latest, which the
// HTTP handlers only read.
type exporter struct {
	o    serveOptions
	loop watch.Loop
	// self gathers the Go runtime's and the process's metrics (memory,
	// CPU, open files) once per poll.
	self *prometheus.Registry
	// note logs a line on stderr.
	note func(string)
	now  func() time.Time

	// hup, when not nil, asks for reload: the filters, granularity and
	// cap it returns apply from the next poll.
	hup    <-chan os.Signal
	reload func() (serveOptions, error)

	// state is the exporter's own, written by the poll loop only.
	state metrics.Exporter
	// groupText and groupOM are the groups' families of the latest
	// successful poll, encoded; a failed poll keeps them.
	groupText, groupOM []byte
	groupFams          *metrics.Families
	lastDropped        int

	// page is what the handlers serve, swapped whole after each poll.
	page  atomic.Pointer[page]
	ready atomic.Bool
	// wantOM turns on rendering OpenMetrics with every poll once a
	// scraper asked for it.
	wantOM atomic.Bool
}

// page is one poll's exposition in the two formats; om is made on first
// demand when no scraper had asked for OpenMetrics yet.
type page struct {
	text     []byte
	lastPoll time.Time // the start of the poll the values are from

	omOnce sync.Once
	om     []byte
	omFrom func() []byte
}

func (p *page) openMetrics() []byte {
	p.omOnce.Do(func() {
		if p.om == nil && p.omFrom != nil {
			p.om = p.omFrom()
		}
		p.omFrom = nil
	})
	return p.om
}

func newExporter(o serveOptions, poll func(context.Context) (*kafka.Snapshot, error), read watch.Reader, ver [2]string) *exporter {
	window := time.Duration(lag.DefaultConfig().Window) * o.interval
	cfg, _ := watch.Config(window, o.interval)
	self := prometheus.NewRegistry()
	self.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	e := &exporter{
		o:    o,
		loop: watch.Loop{Poll: poll, Read: read, Tracker: lag.NewTracker(cfg)},
		self: self,
		note: func(string) {},
		now:  time.Now,
	}
	e.state = metrics.Exporter{Version: ver[0], GoVersion: ver[1], Errors: map[string]uint64{}, MaxSeries: o.maxSeries}
	e.publish(time.Time{})
	return e
}

// run serves on ln and polls every interval until ctx ends, then shuts
// the server down within shutdownGrace.
func (e *exporter) run(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: e.handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	e.pollLoop(ctx)

	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// pollLoop polls at once, then an interval after each poll started (a
// slow poll delays the next rather than crowding two together), until
// ctx ends.
func (e *exporter) pollLoop(ctx context.Context) {
	for {
		start := e.now()
		e.pollOnce(ctx)
		wait := time.Until(start.Add(e.o.interval))
		if wait < 0 {
			wait = 0
		}
		t := time.NewTimer(wait)
	waiting:
		for {
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-e.hup:
				e.applyReload()
			case <-t.C:
				break waiting
			}
		}
	}
}

// applyReload takes the filters, granularity and cap reload reads; a
// configuration that does not load keeps the ones in force.
func (e *exporter) applyReload() {
	if e.reload == nil {
		return
	}
	o, err := e.reload()
	if err != nil {
		e.note(fmt.Sprintf("SIGHUP: the configuration was not reloaded, the settings in force stay: %v", err))
		return
	}
	e.o.filter, e.o.granularity, e.o.maxSeries = o.filter, o.granularity, o.maxSeries
	e.state.MaxSeries = o.maxSeries
	if o.listen != e.o.listen {
		e.note(fmt.Sprintf("SIGHUP: listen %s is not applied until a restart", o.listen))
	}
	e.note(fmt.Sprintf("SIGHUP: reloaded the group filters (granularity %s, series cap %d); they apply from the next poll", o.granularity, o.maxSeries))
}

// pollOnce is one judged poll and its rendering.
func (e *exporter) pollOnce(ctx context.Context) {
	start := e.now()
	pctx, cancel := context.WithTimeout(ctx, e.o.timeout)
	snap, exactErr, err := e.loop.Step(pctx)
	cancel()
	if ctx.Err() != nil {
		return // stopping: keep what is served
	}
	e.state.Polls++
	if err != nil {
		kind := pollErrorKind(err)
		e.state.Errors[kind]++
		e.state.PollSuccess = false
		e.state.PollDuration = e.now().Sub(start)
		e.note(fmt.Sprintf("poll failed (%s): %v; serving the values of the last poll that succeeded", kind, err))
		e.publish(e.state.LastSuccess)
		return
	}
	for i := range snap.Groups {
		if snap.Groups[i].Err != nil {
			e.state.Errors["group"]++
		}
	}
	if exactErr != nil {
		e.state.Errors["exact_read"]++
	}
	e.render(snap)
	e.state.PollSuccess = true
	e.state.LastSuccess = snap.Time
	e.state.PollDuration = e.now().Sub(start)
	e.publish(snap.Time)
	e.ready.Store(true)
}

// render encodes the groups' families of snap, the tracker's latest poll.
func (e *exporter) render(snap *kafka.Snapshot) {
	fams, st := metrics.Groups(snap, e.loop.Tracker, metrics.Options{Granularity: e.o.granularity, Filter: e.o.filter, MaxSeries: e.o.maxSeries})
	e.state.Stats = st
	e.state.Dropped += uint64(st.DroppedSeries)
	if st.DroppedGroups != e.lastDropped {
		if st.DroppedGroups > 0 {
			e.note(fmt.Sprintf("the series cap of %d leaves out %s (%d series), from %q on in name order: raise --max-series, or narrow --allow-groups/--deny-groups or --granularity", e.o.maxSeries, format.Count(st.DroppedGroups, "group", "groups"), st.DroppedSeries, st.FirstDropped))
		} else {
			e.note("every group fits under the series cap again")
		}
		e.lastDropped = st.DroppedGroups
	}
	e.groupFams = fams
	e.groupText = fams.AppendText(nil)
	e.groupOM = nil
	if e.wantOM.Load() {
		e.groupOM = fams.AppendOpenMetrics(nil)
	}
}

// publish makes the page the handlers serve: the groups' bytes of the
// last successful poll and the exporter's own families as of now.
func (e *exporter) publish(lastPoll time.Time) {
	own := e.state.Families()
	if self, err := e.self.Gather(); err == nil {
		own = append(own, self...)
	}
	p := &page{lastPoll: lastPoll}
	p.text = append(append([]byte(nil), e.groupText...), encode(metrics.TextFormat, own)...)
	groupOM, fams := e.groupOM, e.groupFams
	build := func() []byte {
		g := groupOM
		if g == nil && fams != nil {
			g = fams.AppendOpenMetrics(nil)
		}
		return append(append([]byte(nil), g...), encode(metrics.OpenMetricsFormat, own)...)
	}
	if e.wantOM.Load() {
		p.om = build()
	} else {
		p.omFrom = build
	}
	e.page.Store(p)
}

func encode(format expfmt.Format, fams []*dto.MetricFamily) []byte {
	var b bytes.Buffer
	// The families are built here with valid names and UTF-8 label
	// values; an error would be a bug, and leaves the family out.
	_ = metrics.Encode(&b, format, fams)
	return b.Bytes()
}

func (e *exporter) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", e.serveMetrics)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if !e.ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("waiting for the first poll to be judged\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("kgroups serve\n\n/metrics  Prometheus metrics\n/healthz  liveness\n/readyz   readiness (the first poll judged)\n"))
	})
	return mux
}

// serveMetrics writes the latest page in the format the scraper asks for:
// a copy of bytes rendered with the poll, and the age of its values.
func (e *exporter) serveMetrics(w http.ResponseWriter, r *http.Request) {
	p := e.page.Load()
	format := metrics.Negotiate(r.Header.Get("Accept"))
	body := p.text
	if format.FormatType() == expfmt.TypeOpenMetrics {
		e.wantOM.Store(true)
		body = p.openMetrics()
	}
	w.Header().Set("Content-Type", string(format))
	_, _ = w.Write(body)
	_, _ = w.Write(metrics.Tail(format, p.lastPoll, e.now()))
}
