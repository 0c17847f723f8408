//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestServeAnswersGetAndHeadOnly: the exporter changes nothing, so any
// method but GET and HEAD is 405 Method Not Allowed with an Allow header,
// on every path.
func TestServeAnswersGetAndHeadOnly(t *testing.T) {
	e := newExporter(serveOptions{interval: time.Hour, timeout: time.Minute}, nil, nil, [2]string{"test", "go"})
	h := e.handler()
	for _, path := range []string{"/metrics", "/healthz", "/readyz", "/", "/nothing"} {
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions, "PROPFIND"} {
			w := newHTTPRecorder()
			h.ServeHTTP(w, mustRequest(t, method, path))
			if w.code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" || w.body.String() != "method not allowed: kgroups serve answers GET and HEAD only\n" {
				t.Errorf("%s %s: %d, Allow %q, body %q", method, path, w.code, w.Header().Get("Allow"), w.body.String())
			}
		}
	}
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		w := newHTTPRecorder()
		h.ServeHTTP(w, mustRequest(t, method, "/healthz"))
		if w.code != http.StatusOK {
			t.Errorf("%s /healthz: %d", method, w.code)
		}
	}
}

// TestServeServerBounds: the HTTP server has the timeouts and the header
// cap Prometheus' own servers have, so idle and slow connections are
// closed; and no more than the cap of connections are open at once: past
// it, a new one waits until one closes.
func TestServeServerBounds(t *testing.T) {
	srv := httpServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout != 10*time.Second || srv.ReadTimeout != 30*time.Second || srv.WriteTimeout != 30*time.Second || srv.IdleTimeout != 60*time.Second || srv.MaxHeaderBytes != 16<<10 {
		t.Fatalf("server bounds: header %s, read %s, write %s, idle %s, header bytes %d", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := limitListener(ln, 2)
	srv = httpServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) }))
	go func() { _ = srv.Serve(lim) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()
	// Two connections that hold their slot (kept alive after a request).
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if got := rawGet(t, c); got != "HTTP/1.1 200 OK" {
			t.Fatalf("held connection: %q", got)
		}
		held = append(held, c)
	}
	third, err := net.Dial("tcp", addr) // the kernel's backlog takes it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = third.Close() })
	answered := make(chan string, 1)
	go func() { answered <- rawGet(t, third) }()
	select {
	case got := <-answered:
		t.Fatalf("a third connection was served past the cap of 2: %q", got)
	case <-time.After(300 * time.Millisecond):
	}
	_ = held[0].Close()
	select {
	case got := <-answered:
		if got != "HTTP/1.1 200 OK" {
			t.Fatalf("third connection: %q", got)
		}
	case <-time.After(kafkatest.WaitTimeout):
		t.Fatal("the third connection was not served after one closed")
	}
}

// rawGet sends GET /metrics on c, keeping it alive, and returns the
// status line.
func rawGet(t *testing.T, c net.Conn) string {
	t.Helper()
	if _, err := io.WriteString(c, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return err.Error()
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err.Error()
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return "HTTP/1.1 " + resp.Status
}

// TestServeReloadOfAFIFOKeepsPolling: SIGHUP with the configuration file
// replaced by a FIFO neither stops the polls nor waits on it: the reload
// fails at once, says so on stderr, keeps the settings in force, and
// kgroups_config_reload_success turns 0 while kgroups_poll_success stays
// true to the polls.
func TestServeReloadOfAFIFOKeepsPolling(t *testing.T) {
	c := kafkatest.NewCluster(t)
	isolateConfig(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "current-context: p\ncontexts:\n  - name: p\n    brokers: ["+strings.Join(c.Addrs, ",")+"]\n    refresh: 1s\n")
	addr, stderr, stop := servedKgroups(t, "--config", cfg)
	kafkatest.Eventually(t, "/readyz ready", func() bool {
		code, _ := get(addr, "/readyz", "")
		return code == http.StatusOK
	})
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	want := "kgroups serve: SIGHUP: the configuration was not reloaded, the settings in force stay: config " + cfg + " is a named pipe, not a regular file: kgroups reads only a regular file again\n"
	kafkatest.Eventually(t, "the failed reload logged", func() bool { return strings.Contains(stderr.String(), want) })
	fams := scrape(t, addr)
	if single(fams, "kgroups_config_reload_success") != 0 || single(fams, "kgroups_config_reloads_total") != 1 {
		t.Fatalf("reload success %v, reloads %v", single(fams, "kgroups_config_reload_success"), single(fams, "kgroups_config_reloads_total"))
	}
	polls := single(fams, "kgroups_polls_total")
	kafkatest.Eventually(t, "polls go on after the failed reload", func() bool {
		f := scrape(t, addr)
		return single(f, "kgroups_polls_total") >= polls+2 && single(f, "kgroups_poll_success") == 1
	})
	if code, _ := stop(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
}

// httpRecorder is a minimal http.ResponseWriter for handler tests.
type httpRecorder struct {
	header http.Header
	code   int
	body   strings.Builder
}

func newHTTPRecorder() *httpRecorder {
	return &httpRecorder{header: http.Header{}, code: http.StatusOK}
}

func (r *httpRecorder) Header() http.Header { return r.header }

func (r *httpRecorder) Write(b []byte) (int, error) { return r.body.Write(b) }

func (r *httpRecorder) WriteHeader(code int) { r.code = code }

func mustRequest(t *testing.T, method, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, "http://127.0.0.1"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// TestServeSaysAStuckLoopIsNotPolling: when no new page replaced the
// last one by the time the next poll should have ended (the interval,
// the poll's timeout, a reload, a second to spare), scrapes say
// kgroups_poll_success 0, in both formats, with the last values: a poll
// loop that is stuck never reads as a poll that succeeded.
func TestServeSaysAStuckLoopIsNotPolling(t *testing.T) {
	poll := func(context.Context) (*kafka.Snapshot, error) { return fixture.Snapshot(fixture.Epoch, 0), nil }
	e := newExporter(serveOptions{interval: 5 * time.Second, timeout: 20 * time.Second}, poll, nil, [2]string{"test", "go"})
	now := fixture.Epoch
	e.now = func() time.Time { return now }
	e.pollOnce(context.Background())
	scrapeAt := func(at time.Time, accept string) string {
		now = at
		w := newHTTPRecorder()
		req := mustRequest(t, http.MethodGet, "/metrics")
		req.Header.Set("Accept", accept)
		e.handler().ServeHTTP(w, req)
		return w.body.String()
	}
	due := fixture.Epoch.Add(5*time.Second + 20*time.Second + reloadTimeout + time.Second)
	for _, tc := range []struct{ accept, yes, no string }{
		{"", "\nkgroups_poll_success 1\n", "\nkgroups_poll_success 0\n"},
		{"application/openmetrics-text;version=1.0.0", "\nkgroups_poll_success 1.0\n", "\nkgroups_poll_success 0.0\n"},
	} {
		if body := scrapeAt(due, tc.accept); !strings.Contains(body, tc.yes) {
			t.Errorf("%q: at the due time, no %q in\n%s", tc.accept, tc.yes, body)
		}
		body := scrapeAt(due.Add(time.Millisecond), tc.accept)
		if !strings.Contains(body, tc.no) || !strings.Contains(body, "kgroups_group_info{") {
			t.Errorf("%q: once overdue, no %q or no group values in\n%s", tc.accept, tc.no, body)
		}
		if tc.accept == "" {
			if got := single(parseExposition(t, []byte(body)), "kgroups_poll_success"); got != 0 {
				t.Errorf("poll_success %v once overdue, want 0", got)
			}
		}
	}
	// The next poll makes it true again.
	now = due.Add(time.Minute)
	e.pollOnce(context.Background())
	if body := scrapeAt(now, ""); !strings.Contains(body, "\nkgroups_poll_success 1\n") {
		t.Errorf("after a new poll:\n%s", body)
	}
}
