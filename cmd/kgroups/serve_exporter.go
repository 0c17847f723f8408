package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render/metrics"
)

// shutdownGrace is how long a signal lets scrapes in flight finish
// before the server closes: SIGTERM stops serve within a second.
const shutdownGrace = 800 * time.Millisecond

// The HTTP server's bounds, as Prometheus' own servers have them: a
// client gets readHeaderTimeout to send its request line and headers
// (of at most maxHeaderBytes), readTimeout for the whole request,
// writeTimeout to take the answer, and a kept-alive connection is closed
// after idleTimeout without a request. At most maxConnections are open
// at once (limitListener): past that, new ones wait in the listen
// backlog for one to close, instead of each taking a file descriptor.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 16 << 10
	maxConnections    = 256
)

// exporter is `kgroups serve`'s state: the judged polls (watch.Loop over
// a lag.Tracker) and the exposition rendered from the latest, which the
// HTTP handlers only read.
type exporter struct {
	o    serveOptions
	loop watch.Loop
	// rec, when not nil, is loop writing every poll to serve's rolling
	// recording (--record); sink is its files.
	rec  *recording.Recorder
	sink *recording.Rotating
	// self reads the Go runtime's and the process's metrics (memory,
	// CPU, open files) once per poll.
	self func() []*metrics.Family
	// note logs a line on stderr.
	note func(string)
	now  func() time.Time

	// hup, when not nil, asks for reload: the filters, granularity and
	// cap it returns apply from the next poll.
	hup    <-chan os.Signal
	reload func() (serveOptions, error)

	// gc, when not nil, collects as each poll starts (collect).
	gc func()

	// state is the exporter's own, written by the poll loop only.
	state metrics.Exporter
	// groupText and groupOM are the groups' families of the latest
	// successful poll, encoded; a failed poll keeps them.
	groupText, groupOM []byte
	groupFams          *metrics.Families
	lastDropped        int
	// unchanged counts the polls whose groups' bytes were those of the
	// poll before, served again.
	unchanged int
	// textPage and omPage write the groups' families, copying each
	// group's lines that did not change since the poll before.
	textPage, omPage metrics.Page

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
	text     body
	lastPoll time.Time // the start of the poll the values are from

	omOnce sync.Once
	om     body
	omFrom func() body

	// due is when the next page should have replaced this one (zero:
	// no poll judged yet). A page still served after it is overdue:
	// the poll loop is stuck, and the scrape says kgroups_poll_success 0
	// (overdue, rendered once on first demand) rather than the last
	// poll's 1.
	due         time.Time
	overdueOnce sync.Once
	overdue     [2]body // text, OpenMetrics
	overdueFrom func(om bool) body
}

// body is a page's bytes in two parts, sent one after the other: the
// groups' families of the last successful poll, shared by every page
// until the next poll, and the exporter's own families as of the page.
// The groups' 5 MB at 10,000 groups are then not copied into each page.
type body [2][]byte

// bytes is the body in one slice.
func (b body) bytes() []byte { return append(append([]byte(nil), b[0]...), b[1]...) }

func (p *page) openMetrics() body {
	p.omOnce.Do(func() {
		if p.om[0] == nil && p.om[1] == nil && p.omFrom != nil {
			p.om = p.omFrom()
		}
		p.omFrom = nil
	})
	return p.om
}

// overdueBody is the page with kgroups_poll_success 0, in the text format
// or OpenMetrics.
func (p *page) overdueBody(om bool) body {
	p.overdueOnce.Do(func() {
		p.overdue = [2]body{p.overdueFrom(false), p.overdueFrom(true)}
		p.overdueFrom = nil
	})
	if om {
		return p.overdue[1]
	}
	return p.overdue[0]
}

// overdueAfter is how long after a page is published the next one is
// late: the wait until the next poll, the poll's own timeout, a reload
// read in between, and a second to spare.
func (e *exporter) overdueAfter() time.Duration {
	return e.o.interval + e.o.timeout + reloadTimeout + time.Second
}

func newExporter(o serveOptions, poll func(context.Context) (*kafka.Snapshot, error), read watch.Reader, ver [2]string) *exporter {
	// The groups screen's history: the same polls give the same verdicts
	// as the UI at any refresh, and a consumer's rhythm is remembered in
	// time, not in polls (ten polls a second apart would forget a
	// consumer that commits every five seconds). --window is health's.
	cfg := lag.DefaultConfig()
	if o.window > 0 {
		cfg, _ = watch.Config(o.window, o.interval)
	}
	e := &exporter{
		o:    o,
		loop: watch.Loop{Poll: poll, Read: read, Tracker: lag.NewTracker(cfg)},
		self: metrics.Self,
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
	srv := httpServer(e.handler())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	e.pollLoop(ctx)
	if e.sink != nil {
		if err := e.sink.Close(); err != nil {
			e.note(fmt.Sprintf("--record: %v", err))
		}
	}

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

// httpServer is the exporter's HTTP server for h, with its bounds.
func httpServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		// A client that sends garbage or hangs up is its own problem:
		// logging each would let any client flood stderr.
		ErrorLog: log.New(io.Discard, "", 0),
	}
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
	// The page is published before the note: whoever reads the note
	// and then scrapes sees the reload in the metrics.
	o, err := e.reload()
	e.state.Reloads++
	if err != nil {
		e.state.ReloadFailed = true
		e.publish(e.page.Load().lastPoll)
		e.note(fmt.Sprintf("SIGHUP: the configuration was not reloaded, the settings in force stay: %v", err))
		return
	}
	e.state.ReloadFailed = false
	e.o.filter, e.o.granularity, e.o.maxSeries = o.filter, o.granularity, o.maxSeries
	e.state.MaxSeries = o.maxSeries
	e.publish(e.page.Load().lastPoll)
	if o.listen != e.o.listen {
		e.note(fmt.Sprintf("SIGHUP: listen %s is not applied until a restart", o.listen))
	}
	e.note(fmt.Sprintf("SIGHUP: reloaded the group filters (granularity %s, series cap %d); they apply from the next poll", o.granularity, o.maxSeries))
}

// pollOnce is one judged poll and its rendering.
func (e *exporter) pollOnce(ctx context.Context) {
	start := e.now()
	// The page is bytes: the last poll's rows need not live through
	// this poll's answers. The tracker answers for its latest poll until
	// here.
	e.loop.Tracker.Release()
	e.collect()
	pctx, cancel := context.WithTimeout(ctx, e.o.timeout)
	var snap *kafka.Snapshot
	var exactErr, err error
	if e.rec != nil {
		var werr error
		snap, exactErr, err, werr = e.rec.Step(pctx)
		if werr != nil {
			// Serving matters more than the recording: it stops, says
			// why, and the polls go on.
			e.note(fmt.Sprintf("--record stopped: %v; serving goes on without it", werr))
			_ = e.sink.Close()
			e.rec = nil
		}
	} else {
		snap, exactErr, err = e.loop.Step(pctx)
	}
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

// collect runs a collection as a poll starts, once the last poll is let
// go of (Tracker.Release), when serve's live heap is at its lowest: the
// history, the page and the families, with nothing of a poll. Left to
// the runtime, that collection came with the poll's first allocations,
// early or late by chance: late, it marked the last poll's snapshot and
// the answers of the next arriving together, and the soft memory limit,
// which follows the largest live heap a collection finds
// (memlimit.go), rose by as much; every collection of the poll after it
// then had less room. Run here, it finds only what serve keeps, and the
// poll's answers, rows and judging start with the heap empty of the last
// poll. Its cost is the collection the poll's first allocations would
// have started. runServe sets gc; an exporter made by newExporter alone
// (the tests') does not collect.
func (e *exporter) collect() {
	if e.gc != nil {
		e.gc()
	}
}

// render encodes the groups' families of snap, the tracker's latest poll.
func (e *exporter) render(snap *kafka.Snapshot) {
	// The families are built against the last poll's: each shares its
	// samples while they are the same and allocates its own, at their
	// size, from the first that differs. At 10,000 groups, growing them
	// sample by sample allocated twice what they keep, each poll, and a
	// poll at rest now allocates none.
	fams, st := metrics.Groups(snap, e.loop.Tracker, metrics.Options{Granularity: e.o.granularity, Filter: e.o.filter, MaxSeries: e.o.maxSeries, SizeFrom: e.groupFams})
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
	// A poll that changes no line (a cluster at rest, every group caught
	// up) serves the bytes of the poll before again rather than copying
	// them into a new page: about 5 MB a poll at 10,000 groups.
	om := e.wantOM.Load()
	if e.groupText != nil && e.textPage.Unchanged(fams) && (!om || e.groupOM != nil && e.omPage.Unchanged(fams)) {
		e.unchanged++
		return
	}
	e.groupFams = fams
	e.groupText = e.textPage.Append(make([]byte, 0, len(e.groupText)+len(e.groupText)/16), fams)
	e.groupOM = nil
	if om {
		e.omPage.OpenMetrics = true
		e.groupOM = e.omPage.Append(make([]byte, 0, len(e.groupText)+len(e.groupText)/8), fams)
	}
}

// publish makes the page the handlers serve: the groups' bytes of the
// last successful poll and the exporter's own families as of now.
func (e *exporter) publish(lastPoll time.Time) {
	own := append(e.state.Families(), e.self()...)
	p := &page{lastPoll: lastPoll}
	p.text = body{e.groupText, encode(metrics.TextFormat, own)}
	groupText, groupOM, fams := e.groupText, e.groupOM, e.groupFams
	groupsIn := func(om bool) []byte {
		if !om {
			return groupText
		}
		if groupOM == nil && fams != nil {
			return fams.AppendOpenMetrics(nil)
		}
		return groupOM
	}
	build := func() body {
		return body{groupsIn(true), encode(metrics.OpenMetricsFormat, own)}
	}
	if e.ready.Load() || e.state.PollSuccess {
		p.due = e.now().Add(e.overdueAfter())
		late := e.state // the poll loop changes the map later: copy it
		late.Errors = maps.Clone(e.state.Errors)
		late.PollSuccess = false
		lateOwn := late.Families()
		if len(own) > len(lateOwn) {
			lateOwn = append(lateOwn, own[len(lateOwn):]...) // the process's and the runtime's
		}
		p.overdueFrom = func(om bool) body {
			f := metrics.TextFormat
			if om {
				f = metrics.OpenMetricsFormat
			}
			return body{groupsIn(om), encode(f, lateOwn)}
		}
	}
	if e.wantOM.Load() {
		p.om = build()
	} else {
		p.omFrom = build
	}
	e.page.Store(p)
}

func encode(format metrics.Format, fams []*metrics.Family) []byte {
	var b bytes.Buffer
	_ = metrics.Encode(&b, format, fams) // a bytes.Buffer takes every byte
	return b.Bytes()
}

func (e *exporter) handler() http.Handler {
	return readOnly(e.routes())
}

// readOnly answers GET and HEAD with h, and any other method with 405
// Method Not Allowed and an Allow header: the exporter changes nothing,
// so nothing else has a meaning.
func readOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusMethodNotAllowed)
			_, _ = w.Write([]byte("method not allowed: kgroups serve answers GET and HEAD only\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// routes are the exporter's pages.
func (e *exporter) routes() http.Handler {
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
	om := format.OpenMetrics()
	body := p.text
	if om {
		e.wantOM.Store(true)
		body = p.openMetrics()
	}
	if !p.due.IsZero() && e.now().After(p.due) {
		body = p.overdueBody(om)
	}
	w.Header().Set("Content-Type", string(format))
	_, _ = w.Write(body[0])
	_, _ = w.Write(body[1])
	_, _ = w.Write(metrics.Tail(format, p.lastPoll, e.now()))
}

// limitListener accepts at most n connections at once: Accept waits for
// one to close past that (as golang.org/x/net/netutil.LimitListener).
func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limited struct {
	net.Listener
	sem       chan struct{}
	closeOnce sync.Once
	done      chan struct{}
}

func (l *limited) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limited) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
