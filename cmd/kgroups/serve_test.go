package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// freeAddr is a loopback address with a port nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	// A port below the kernel's ephemeral range: one closed here is not
	// handed to some other test's outgoing connection before it is bound
	// again (a busy machine's tests open thousands).
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				low = n
			}
		}
	}
	for range 100 {
		if low <= 20000 {
			break
		}
		port := 20000 + rand.IntN(low-20000)
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		addr := ln.Addr().String()
		_ = ln.Close()
		return addr
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// lockedBuffer is a buffer two goroutines can share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// servedKgroups runs `kgroups serve` with args in the background until
// the test ends, and returns its address and its stderr.
func servedKgroups(t *testing.T, args ...string) (addr string, stderr *lockedBuffer, stop func() (int, time.Duration)) {
	t.Helper()
	addr = freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	stderr = &lockedBuffer{}
	done := make(chan int, 1)
	// args are global flags, optionally followed by "serve" and its own.
	if !slices.Contains(args, "serve") {
		args = append(args, "serve")
	}
	argv, errOut := append(args, "--listen", addr), stderr
	go func() {
		done <- run(ctx, argv, strings.NewReader(""), io.Discard, errOut)
	}()
	var once sync.Once
	code, took := -1, time.Duration(0)
	stop = func() (int, time.Duration) {
		once.Do(func() {
			start := time.Now()
			cancel()
			select {
			case code = <-done:
			case <-time.After(kafkatest.WaitTimeout):
				t.Error("kgroups serve did not stop")
			}
			took = time.Since(start)
		})
		return code, took
	}
	t.Cleanup(func() { stop() })
	kafkatest.Eventually(t, "kgroups serve answering /healthz", func() bool {
		code, _ := get(addr, "/healthz", "")
		return code == http.StatusOK
	})
	return addr, stderr, stop
}

// get fetches path from addr with the Accept header given.
func get(addr, path, accept string) (int, []byte) {
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	if err != nil {
		return 0, nil
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, nil
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// scrape reads /metrics in the text format.
func scrape(t *testing.T, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	code, body := get(addr, "/metrics", "")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	return parseExposition(t, body)
}

// parseExposition parses the text format.
func parseExposition(t testing.TB, body []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, body)
	}
	return fams
}

// series are a family's samples by the value of one label.
func series(fams map[string]*dto.MetricFamily, name, by string) map[string]*dto.Metric {
	out := map[string]*dto.Metric{}
	f := fams[name]
	if f == nil {
		return out
	}
	for _, m := range f.Metric {
		key := ""
		for _, l := range m.Label {
			if l.GetName() == by {
				key = l.GetValue()
			}
		}
		out[key] = m
	}
	return out
}

func value(m *dto.Metric) float64 {
	if m == nil {
		return math.NaN()
	}
	if m.Counter != nil {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}

func labelOf(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// single is the value of a family without labels.
func single(fams map[string]*dto.MetricFamily, name string) float64 {
	return value(series(fams, name, "")[""])
}

var healthGroups = []string{"g-ok", "g-stop", "g-stall", "g-rewind"}

// stuckBefore are the groups of healthGroups whose live member committed
// once before kgroups started and stands (startHealthCluster without
// stallDuringWindow or rewindDuringWindow): with no rhythm seen, they are
// JUDGING until the rhythm ceiling (5 minutes), longer than these tests.
var stuckBefore = map[string]bool{"g-stall": true, "g-rewind": true}

// decided reports whether every group of healthGroups has the verdict a
// full window gives it in fams: decided, or JUDGING for stuckBefore. (The
// others, decided, tell that the window is full.)
func decided(fams map[string]*dto.MetricFamily) bool {
	vs := series(fams, "kgroups_group_verdict", "group")
	for _, g := range healthGroups {
		m := vs[g]
		if m == nil {
			return false
		}
		s := labelOf(m, "status")
		if s == "UNKNOWN" || (s == "JUDGING") != stuckBefore[g] {
			return false
		}
	}
	return true
}

// compareWithHealth runs `kgroups health -o json` over healthGroups with
// the window serve judges by (10 polls of --refresh) and checks that
// serve's values, scraped from the page get returns, are health's: lag
// exactly, time lag within one poll (the two commands poll at different
// moments), verdicts exactly.
func compareWithHealth(t *testing.T, brokers string, interval time.Duration, read func() (map[string]*dto.MetricFamily, float64)) {
	t.Helper()
	code, stdout, stderr := kg(t, append([]string{"-b", brokers, "health", "-o", "json", "--window", (10 * interval).String(), "--interval", interval.String()}, healthGroups...)...)
	if code != 0 {
		t.Fatalf("health: exit %d\n%s", code, stderr)
	}
	fams, age := read()
	var doc healthJSON
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("health json: %v\n%s", err, stdout)
	}
	verdicts := series(fams, "kgroups_group_verdict", "group")
	lags := series(fams, "kgroups_group_lag_records", "group")
	times := series(fams, "kgroups_group_time_lag_seconds", "group")
	sources := series(fams, "kgroups_group_time_lag_source", "group")
	kinds := map[string]float64{"unknown": 0, "caught-up": 1, "interpolated": 2, "at-least": 3, "exact": 4}
	sev := map[string]float64{"OK": 0, "WARN": 1, "ERR": 2}
	if len(doc.Groups) != len(healthGroups) {
		t.Fatalf("health judged %d groups:\n%s", len(doc.Groups), stdout)
	}
	for _, g := range doc.Groups {
		v := verdicts[g.Group]
		if v == nil {
			t.Errorf("%s: no verdict served", g.Group)
			continue
		}
		want := g.Status
		if g.Judging != nil {
			want = "JUDGING"
		}
		if labelOf(v, "status") != want || value(v) != sev[g.Severity] {
			t.Errorf("%s: serve says %s (%v), health %s (%s)", g.Group, labelOf(v, "status"), value(v), want, g.Severity)
		}
		// A consumer stuck since before either started waits for its
		// rhythm in both, and health says so; the others are decided.
		if stuck := stuckBefore[g.Group]; (g.Judging != nil) != stuck || stuck && !strings.Contains(g.Judging.Reason, "no rhythm seen yet") {
			t.Errorf("%s: health judging %+v, want JUDGING for want of a rhythm: %v", g.Group, g.Judging, stuck)
		}
		if g.TotalLag == nil || value(lags[g.Group]) != float64(*g.TotalLag) {
			t.Errorf("%s: serve's lag %v, health's %v", g.Group, value(lags[g.Group]), g.TotalLag)
		}
		if value(sources[g.Group]) != kinds[g.MaxTimeLagKind] {
			t.Errorf("%s: serve's time-lag source %v, health's %s", g.Group, value(sources[g.Group]), g.MaxTimeLagKind)
		}
		// One poll apart at most, plus the age of serve's values.
		if g.MaxTimeLagSeconds != nil {
			tol := interval.Seconds() + age + 0.25
			if d := math.Abs(value(times[g.Group]) - *g.MaxTimeLagSeconds); !(d <= tol) {
				t.Errorf("%s: serve's time lag %v, health's %v (tolerance %v)", g.Group, value(times[g.Group]), *g.MaxTimeLagSeconds, tol)
			}
		}
	}
}

// TestServeAgreesWithHealth: `kgroups serve` over the kfake cluster of
// the health tests serves what `kgroups health -o json` says, it is ready
// once the first poll is judged, keeps serving with kgroups_poll_success
// 0 when the cluster stops answering, and stops within a second.
func TestServeAgreesWithHealth(t *testing.T) {
	c := startHealthCluster(t)
	const interval = config.MinRefresh
	addr, stderr, stop := servedKgroups(t, "-b", c.brokers, "--refresh", interval.String(), "--timeout", "500ms", "serve", "--window", (10 * interval).String())
	kafkatest.Eventually(t, "/readyz ready", func() bool {
		code, _ := get(addr, "/readyz", "")
		return code == http.StatusOK
	})
	kafkatest.Eventually(t, "every verdict decided", func() bool { return decided(scrape(t, addr)) })
	compareWithHealth(t, c.brokers, interval, func() (map[string]*dto.MetricFamily, float64) {
		fams := scrape(t, addr)
		return fams, single(fams, "kgroups_last_poll_age_seconds")
	})

	fams := scrape(t, addr)
	if single(fams, "kgroups_poll_success") != 1 || single(fams, "kgroups_polls_total") < 2 {
		t.Errorf("exporter health: success %v polls %v", single(fams, "kgroups_poll_success"), single(fams, "kgroups_polls_total"))
	}
	if bi := series(fams, "kgroups_build_info", "version"); len(bi) != 1 {
		t.Errorf("build info %v", bi)
	}
	if fams["process_resident_memory_bytes"] == nil || fams["go_goroutines"] == nil {
		t.Error("the process and Go runtime metrics are missing")
	}
	// OpenMetrics on request, ending with # EOF.
	code, om := get(addr, "/metrics", "application/openmetrics-text;version=1.0.0")
	if code != http.StatusOK || !bytes.HasSuffix(om, []byte("# EOF\n")) || !bytes.Contains(om, []byte("# TYPE kgroups_polls counter\nkgroups_polls_total")) {
		t.Errorf("OpenMetrics: %d\n%s", code, om)
	}

	// The cluster stops answering: scrapes still answer, with the last
	// values, kgroups_poll_success 0 and their age; then it comes back.
	lagBefore := value(series(fams, "kgroups_group_lag_records", "group")["g-stop"])
	var down atomic.Bool
	c.ControlKey(int16(kmsg.ListGroups), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if down.Load() {
			return nil, errors.New("the cluster stops answering"), true
		}
		return nil, nil, false
	})
	down.Store(true)
	kafkatest.Eventually(t, "kgroups_poll_success 0", func() bool {
		return single(scrape(t, addr), "kgroups_poll_success") == 0
	})
	fams = scrape(t, addr)
	errs := series(fams, "kgroups_poll_errors_total", "kind")
	if value(errs["poll"])+value(errs["timeout"]) < 1 {
		t.Errorf("no poll error counted: %v", errs)
	}
	if got := value(series(fams, "kgroups_group_lag_records", "group")["g-stop"]); got != lagBefore {
		t.Errorf("g-stop's lag while the cluster is down: %v, want the last value %v", got, lagBefore)
	}
	if age := single(fams, "kgroups_last_poll_age_seconds"); !(age > 0) {
		t.Errorf("age of the served values %v", age)
	}
	if code, _ := get(addr, "/readyz", ""); code != http.StatusOK {
		t.Errorf("/readyz %d while polls fail: the last values are still served", code)
	}
	down.Store(false)
	kafkatest.Eventually(t, "kgroups_poll_success 1 again", func() bool {
		return single(scrape(t, addr), "kgroups_poll_success") == 1
	})
	if !strings.Contains(stderr.String(), "poll failed") {
		t.Errorf("no poll failure logged:\n%s", stderr.String())
	}

	stopCode, took := stop()
	if stopCode != 0 || took > 5*time.Second {
		t.Errorf("serve stopped with %d after %s; stderr:\n%s", stopCode, took, stderr.String())
	}
	if !strings.Contains(stderr.String(), "kgroups serve: listening on http://"+addr+"/metrics") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// TestServeShowsNoSecret: over a SASL cluster, the password appears in no
// metric, label, page or log line of kgroups serve, running or refused.
func TestServeShowsNoSecret(t *testing.T) {
	const user, pass = "svc", "S3rve-secret-pw"
	cluster, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.EnableSASL(), kfake.Superuser(config.MechanismScramSHA256, user, pass))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	isolateConfig(t)
	brokers := strings.Join(cluster.ListenAddrs(), ",")
	t.Setenv("KGROUPS_SASL_PASSWORD", pass)
	addr, stderr, stop := servedKgroups(t, "-b", brokers, "--sasl-mechanism", "SCRAM-SHA-256", "--sasl-username", user, "--refresh", "1s")
	kafkatest.Eventually(t, "/readyz ready", func() bool {
		code, _ := get(addr, "/readyz", "")
		return code == http.StatusOK
	})
	for _, path := range []string{"/metrics", "/", "/healthz", "/readyz", "/nothing"} {
		for _, accept := range []string{"", "application/openmetrics-text;version=1.0.0"} {
			if _, body := get(addr, path, accept); bytes.Contains(body, []byte(pass)) {
				t.Errorf("%s (%q) shows the password", path, accept)
			}
		}
	}
	if code, _ := stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), pass) {
		t.Errorf("stderr shows the password:\n%s", stderr.String())
	}

	// A wrong password is refused at connect, and not shown either.
	const wrong = "Wr0ng-serve-pw"
	t.Setenv("KGROUPS_SASL_PASSWORD", wrong)
	code, _, errOut := kg(t, "-b", brokers, "--sasl-mechanism", "SCRAM-SHA-256", "--sasl-username", user, "--timeout", "2s", "serve", "--listen", freeAddr(t))
	if code != 1 || !strings.Contains(errOut, "SASL authentication failed") || strings.Contains(errOut, wrong) || strings.Contains(errOut, pass) {
		t.Errorf("wrong password: exit %d, stderr %q", code, errOut)
	}
}

// TestServeOneBadGroupFailsNothing: a group whose offsets could not be
// read (the fixture's shipping-notifier) is exported with what was read
// and counted as a group error; every other group is exported, and so
// are share and streams groups, each with its type.
func TestServeOneBadGroupFailsNothing(t *testing.T) {
	base := fixture.Snapshot(fixture.Epoch, 0)
	base.Groups = append(base.Groups,
		kafka.Group{Name: "jobs-share", Type: kafka.TypeShare, ProtocolType: "share", State: kafka.StateStable,
			Partitions: []kafka.PartitionOffsets{fixture.Part("jobs", 0, 40, 0, 50, nil)}},
		kafka.Group{Name: "wordcount-streams", Type: kafka.TypeStreams, ProtocolType: "streams", State: kafka.StateStable,
			Partitions: []kafka.PartitionOffsets{fixture.Part("words", 0, 7, 0, 7, nil)}})
	sort.Slice(base.Groups, func(i, j int) bool { return base.Groups[i].Name < base.Groups[j].Name })
	n := 0
	poll := func(context.Context) (*kafka.Snapshot, error) {
		s := *base
		s.Time = fixture.Epoch.Add(time.Duration(n) * time.Second)
		n++
		return &s, nil
	}
	e := newExporter(serveOptions{interval: time.Second, timeout: time.Minute}, poll, nil, [2]string{"test", "go"})
	e.pollOnce(context.Background())
	e.pollOnce(context.Background())
	fams := parseExposition(t, e.page.Load().text.bytes())
	info := series(fams, "kgroups_group_info", "group")
	if len(info) != len(base.Groups) {
		t.Errorf("%d groups exported, want %d", len(info), len(base.Groups))
	}
	if m := info["shipping-notifier"]; m == nil {
		t.Error("the group with an error is not exported")
	}
	for name, typ := range map[string]string{"jobs-share": "share", "wordcount-streams": "streams", "analytics-etl": "consumer", "orders-app": "classic"} {
		if got := labelOf(info[name], "type"); got != typ {
			t.Errorf("%s: type %q, want %q", name, got, typ)
		}
	}
	if got := value(series(fams, "kgroups_group_lag_records", "group")["jobs-share"]); got != 10 {
		t.Errorf("jobs-share's lag %v, want 10", got)
	}
	if got := value(series(fams, "kgroups_poll_errors_total", "kind")["group"]); got != 2 {
		t.Errorf("group errors %v, want 2 (one a poll)", got)
	}
	if single(fams, "kgroups_poll_success") != 1 {
		t.Error("one bad group failed the poll")
	}
}

// TestServeReloadsFilters: a SIGHUP (here its channel) applies the group
// filters the configuration gives from the next poll; a configuration
// that does not load keeps the filters in force.
func TestServeReloadsFilters(t *testing.T) {
	poll := func(context.Context) (*kafka.Snapshot, error) {
		s := fixture.Snapshot(time.Now(), 0)
		return s, nil
	}
	e := newExporter(serveOptions{interval: 20 * time.Millisecond, timeout: time.Minute, listen: "127.0.0.1:9308"}, poll, nil, [2]string{"test", "go"})
	var notes lockedBuffer
	e.note = func(s string) { _, _ = notes.Write([]byte(s + "\n")) }
	hup := make(chan os.Signal, 1)
	e.hup = hup
	cc := config.Cluster{Serve: config.ServeConfig{Listen: "127.0.0.1:9308", MaxSeries: "500"}, Groups: config.GroupsConfig{Allow: []string{"orders-.*"}}}
	fail := false
	e.reload = func() (serveOptions, error) {
		if fail {
			return serveOptions{}, errors.New("config /etc/kg.yaml: line 3: bad")
		}
		return parseServe(cc)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.pollLoop(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	groups := func() int {
		return len(series(parseExposition(t, e.page.Load().text.bytes()), "kgroups_group_info", "group"))
	}
	kafkatest.Eventually(t, "every group exported", func() bool { return groups() == len(fixture.Snapshot(fixture.Epoch, 0).Groups) })
	hup <- syscall.SIGHUP
	kafkatest.Eventually(t, "only orders-app exported", func() bool { return groups() == 1 })
	fail = true
	hup <- syscall.SIGHUP
	kafkatest.Eventually(t, "the failed reload noted", func() bool { return strings.Contains(notes.String(), "was not reloaded") })
	if groups() != 1 {
		t.Errorf("a failed reload changed the filters: %d groups", groups())
	}
	if !strings.Contains(notes.String(), "SIGHUP: reloaded the group filters (granularity group, series cap 500)") {
		t.Errorf("notes:\n%s", notes.String())
	}
}

// TestServeSettings: the serve section of the file, the KGROUPS_SERVE_*
// variables and the flags reach serve in that order of precedence, and a
// bad value stops it before it connects, saying what is accepted.
func TestServeSettings(t *testing.T) {
	path := isolateConfig(t)
	writeFile(t, path, `current-context: p
contexts:
  - name: p
    brokers: [127.0.0.1:1]
    serve:
      listen: 127.0.0.1:9400
      granularity: partition
      allow_groups: ["orders-.*", "a{1,3}"]
      skip_empty: true
      max_series: 2000
`)
	cc := effective(t)
	o, err := parseServe(cc)
	if err != nil {
		t.Fatal(err)
	}
	if o.listen != "127.0.0.1:9400" || o.granularity.String() != "partition" || len(o.filter.Allow) != 2 || !o.filter.SkipEmpty || o.maxSeries != 2000 {
		t.Errorf("from the file: %+v", o)
	}
	t.Setenv("KGROUPS_SERVE_GRANULARITY", "topic")
	if o, _ = parseServe(effective(t)); o.granularity.String() != "topic" {
		t.Errorf("the variable did not win over the file: %s", o.granularity)
	}
	if o, _ = parseServe(effective(t, "--granularity", "group", "--max-series", "0")); o.granularity.String() != "group" || o.maxSeries != 0 {
		t.Errorf("the flags did not win: %s %d", o.granularity, o.maxSeries)
	}
	// A comma inside braces stays in its pattern (issue 33), and the flag
	// repeats.
	o, err = parseServe(effective(t, "--deny-groups", "undo.{1,3}", "--deny-groups", "tmp-.*"))
	if err != nil || len(o.filter.Deny) != 2 || !o.filter.Deny[0].MatchString("undo12") || o.filter.Deny[0].MatchString("undo1234") {
		t.Errorf("--deny-groups 'undo.{1,3}' --deny-groups 'tmp-.*': %v %v", o.filter.Deny, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--granularity", "cluster"}, `unknown granularity "cluster" (accepted: group, topic, partition)`},
		{[]string{"--deny-groups", "("}, `--deny-groups: a (, [ or { is not closed in "("`},
		{[]string{"--deny-groups", "a)"}, `invalid pattern "a)"`},
		// A comma inside braces is the pattern's (issue 33): no split,
		// and a pattern that compiles.
		{[]string{"--deny-groups", "undo.{1,3", "--max-series", "-1"}, `is not closed in "undo.{1,3": patterns are split at the commas outside (), [] and {}`},
		{[]string{"--max-series", "-5"}, `bad series cap "-5": want a whole number, 0 for no cap`},
		{[]string{"--listen", "nowhere"}, `bad listen address "nowhere": want host:port`},
		{[]string{"--window", "-1s"}, `invalid --window -1s: it must be above zero (or left out for the groups screen's history)`},
		{[]string{"--refresh", "5s", "--window", "2s"}, `--window 2s is shorter than --refresh 5s: the window must hold at least two polls`},
		{[]string{"--window", "10x"}, `--window`},
	} {
		code, _, stderr := runKgroups(t, append([]string{"serve"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}
