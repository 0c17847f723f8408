package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// needTool finds a Prometheus tool: a test that needs one is skipped,
// saying why, where it is not installed, and fails in CI (CI=true), where
// .ci/run installs Debian's prometheus package.
func needTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed: .ci/run installs Debian's prometheus package, which brings prometheus and promtool", name)
	}
	t.Skipf("%s is not installed (apt-get install prometheus brings prometheus and promtool): this test runs a real one", name)
	return ""
}

// TestAlertRules: the alerting rules in docs pass promtool's check and
// their unit tests.
func TestAlertRules(t *testing.T) {
	promtool := needTool(t, "promtool")
	dir := filepath.Join("..", "..", "docs", "serve")
	for _, args := range [][]string{{"check", "rules", "alerts.yml"}, {"test", "rules", "alerts.test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// promtoolCheck runs `promtool check metrics` on an exposition.
func promtoolCheck(t *testing.T, promtool string, body []byte) {
	t.Helper()
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(body)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// promServer is a Prometheus server the test started.
type promServer struct{ addr string }

// startPrometheus runs a Prometheus server on loopback that scrapes
// target every second, with its configuration and data in a temporary
// folder, until the test ends.
func startPrometheus(t *testing.T, bin, target string) *promServer {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "prometheus.yml")
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: kgroups\n    scrape_interval: 1s\n    scrape_timeout: 900ms\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	cmd := exec.Command(bin, "--config.file="+conf, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	var logs lockedBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start prometheus: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus logs:\n%s", logs.String())
		}
	})
	kafkatest.Eventually(t, "prometheus ready", func() bool {
		code, _ := get(addr, "/-/ready", "")
		return code == http.StatusOK
	})
	return &promServer{addr: addr}
}

// query runs an instant PromQL query (at the given time, or now when
// zero) and returns the result as metric families by metric name, as a
// scrape parses.
func (p *promServer) query(t *testing.T, q string, at time.Time) map[string]*dto.MetricFamily {
	t.Helper()
	v := url.Values{"query": {q}}
	if !at.IsZero() {
		v.Set("time", strconv.FormatFloat(float64(at.UnixNano())/1e9, 'f', 3, 64))
	}
	code, body := get(p.addr, "/api/v1/query?"+v.Encode(), "")
	if code != http.StatusOK {
		t.Fatalf("query %s: %d %s", q, code, body)
	}
	var doc struct {
		Data struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("query %s: %v", q, err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, r := range doc.Data.Result {
		name := r.Metric["__name__"]
		f := out[name]
		if f == nil {
			f = &dto.MetricFamily{Name: &name}
			out[name] = f
		}
		m := &dto.Metric{}
		for k, v := range r.Metric {
			if k != "__name__" {
				m.Label = append(m.Label, &dto.LabelPair{Name: ptrTo(k), Value: ptrTo(v)})
			}
		}
		s, _ := r.Value[1].(string)
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("query %s: value %q", q, s)
		}
		m.Gauge = &dto.Gauge{Value: &x}
		f.Metric = append(f.Metric, m)
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }

// TestServeWithPrometheus: a real Prometheus scrapes `kgroups serve`
// over a kfake cluster with real kgo members; the values it stores are
// what `kgroups health -o json` says (lag exactly, time lag within one
// poll and one scrape, verdicts exactly), a group that disappears goes
// stale, a hostile group id is stored byte for byte, and promtool
// accepts the exposition in both formats.
func TestServeWithPrometheus(t *testing.T) {
	promBin := needTool(t, "prometheus")
	promtool := needTool(t, "promtool")
	c := startHealthCluster(t)
	hostile := "evil\"group\\with\nnewline {} é"
	c.Commit(t, hostile, map[string]map[int32]int64{"t-ok": {0: 2}})
	const interval = config.MinRefresh
	addr, _, _ := servedKgroups(t, "-b", c.brokers, "--refresh", interval.String(), "serve", "--window", (10 * interval).String())
	p := startPrometheus(t, promBin, addr)

	kafkatest.Eventually(t, "prometheus scraping kgroups", func() bool {
		f := p.query(t, `up{job="kgroups"}`, time.Time{})["up"]
		return f != nil && len(f.Metric) == 1 && f.Metric[0].GetGauge().GetValue() == 1
	})
	kafkatest.Eventually(t, "every verdict decided in prometheus", func() bool {
		return decided(p.query(t, `kgroups_group_verdict`, time.Time{}))
	})

	_, text := get(addr, "/metrics", "")
	promtoolCheck(t, promtool, text)
	_, om := get(addr, "/metrics", "application/openmetrics-text;version=1.0.0")
	if !bytes.HasSuffix(om, []byte("# EOF\n")) {
		t.Errorf("OpenMetrics without # EOF")
	}

	compareWithHealth(t, c.brokers, interval, func() (map[string]*dto.MetricFamily, float64) {
		now := time.Now()
		fams := map[string]*dto.MetricFamily{}
		for _, q := range []string{"kgroups_group_verdict", "kgroups_group_lag_records", "kgroups_group_time_lag_seconds", "kgroups_group_time_lag_source", "kgroups_last_poll_age_seconds"} {
			for k, v := range p.query(t, q, now) {
				fams[k] = v
			}
		}
		// The stored sample is up to one scrape old, and the values it
		// carries as old as kgroups_last_poll_age_seconds says.
		return fams, single(fams, "kgroups_last_poll_age_seconds") + 1
	})

	// The hostile id, stored as the broker gave it.
	lags := series(p.query(t, "kgroups_group_lag_records", time.Time{}), "kgroups_group_lag_records", "group")
	if m := lags[hostile]; value(m) != 3 {
		t.Errorf("hostile group %q: lag %v, want 3; stored %v", hostile, value(m), lags)
	}

	// Group ids that are not UTF-8 label as -o json writes them (one
	// U+FFFD a byte) and keep a series each, told apart by group_base64:
	// Prometheus stores all three, not one.
	for _, g := range []string{"coll\xff", "coll\xfe", "coll\uFFFD"} {
		c.Commit(t, g, map[string]map[int32]int64{"t-ok": {0: 1}})
	}
	kafkatest.Eventually(t, "three coll series in prometheus", func() bool {
		f := p.query(t, `kgroups_group_lag_records{group="coll\uFFFD"}`, time.Time{})["kgroups_group_lag_records"]
		if f == nil || len(f.Metric) != 3 {
			return false
		}
		b64 := map[string]bool{}
		for _, m := range f.Metric {
			for _, l := range m.Label {
				if l.GetName() == "group_base64" {
					b64[l.GetValue()] = true
				}
			}
		}
		return b64["Y29sbP8="] && b64["Y29sbP4="] && len(b64) == 2
	})

	// A group that disappears goes stale: Prometheus stops returning it.
	if _, err := c.Admin().DeleteGroups(context.Background(), "g-ok"); err != nil {
		t.Fatal(err)
	}
	kafkatest.Eventually(t, "g-ok stale in prometheus", func() bool {
		f := p.query(t, `kgroups_group_info{group="g-ok"}`, time.Time{})["kgroups_group_info"]
		return f == nil
	})
	if f := p.query(t, `kgroups_group_info{group="g-stop"}`, time.Time{})["kgroups_group_info"]; f == nil {
		t.Error("g-stop went stale with g-ok")
	}
}
