package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
)

func TestHealthUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const help = "Run 'kgroups health --help' for usage.\n"
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"health"}, "kgroups: health needs one or more group names, or --all-groups\n"},
		{[]string{"health", "g", "--all-groups"}, "kgroups: give either group names or --all-groups, not both\n"},
		{[]string{"health", "g", "--window", "0s"}, "kgroups: invalid --window 0s: it must be above zero\n"},
		{[]string{"health", "g", "--window", "-1m"}, "kgroups: invalid --window -1m0s: it must be above zero\n"},
		{[]string{"health", "g", "--interval", "0s"}, "kgroups: invalid --interval 0s: it must be above zero\n"},
		{[]string{"health", "g", "--window", "10s", "--interval", "11s"}, "kgroups: --interval 11s is longer than --window 10s: the window must hold at least two polls\n"},
		{[]string{"health", "g", "--fail-on", "ok"}, "kgroups: invalid --fail-on \"ok\": accepted values are WARN, ERR (any case)\n"},
		{[]string{"health", "g", "--fail-on", "STALL"}, "kgroups: invalid --fail-on \"STALL\": accepted values are WARN, ERR (any case)\n"},
		{[]string{"health", "g", "-o", "yaml"}, "kgroups: invalid --output \"yaml\": accepted values are table, json\n"},
		{[]string{"health", ""}, "kgroups: a group name cannot be empty\n"},
		{[]string{"health", "g", "--window", "soon"}, "kgroups: --window \"soon\": want a duration like 500ms, 10s or 1m (units ns, us, ms, s, m, h)\n"},
	} {
		// Unreachable brokers: validation comes before connecting.
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, tc.args...)...)
		if code != 2 || stdout != "" || stderr != tc.stderr+help {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr+help)
		}
	}
}

func TestHealthFailOnParsing(t *testing.T) {
	for in, want := range map[string]lag.Severity{"WARN": lag.SeverityWarn, "warn": lag.SeverityWarn, "Err": lag.SeverityErr, " ERR ": lag.SeverityErr} { //nolint:gocritic // mapKey: " ERR " tests that the flag value is trimmed
		p, err := parseHealth([]string{"g"}, healthFlags{window: time.Minute, interval: time.Second, format: "table", failOn: in})
		if err != nil || !p.failSet || p.failOn != want {
			t.Errorf("--fail-on %q: %+v, %v; want %s", in, p, err, want)
		}
	}
	p, err := parseHealth([]string{"g", "h", "g"}, healthFlags{window: time.Minute, interval: time.Second, format: "JSON"})
	if err != nil || p.failSet || p.format != formatJSON || !reflect.DeepEqual(p.names, []string{"g", "h"}) {
		t.Errorf("no --fail-on: %+v, %v", p, err)
	}
}

func TestHealthConfig(t *testing.T) {
	d := lag.DefaultConfig()
	for _, tc := range []struct {
		window, interval time.Duration
		polls            int
		want             lag.Config
	}{
		// The defaults: 13 polls, Burrow's window of 10. The rhythm
		// ceiling is the default; a REWIND is reported for the whole
		// window, however long ago in it the drop was seen.
		{time.Minute, 5 * time.Second, 13, lag.Config{Window: 10, MinDistance: 2500 * time.Millisecond, Samples: 13, TimePoints: 60, RatePolls: 13, EvictAfter: d.EvictAfter, Hold: 4, RhythmCeiling: d.RhythmCeiling, EventHold: time.Minute}},
		{2 * time.Second, 200 * time.Millisecond, 11, lag.Config{Window: 10, MinDistance: 100 * time.Millisecond, Samples: 11, TimePoints: 60, RatePolls: 11, EvictAfter: d.EvictAfter, Hold: 4, RhythmCeiling: d.RhythmCeiling, EventHold: 2 * time.Second}},
		// Fewer polls than W: the window shrinks to fit.
		{30 * time.Second, 10 * time.Second, 4, lag.Config{Window: 4, MinDistance: 5 * time.Second, Samples: 4, TimePoints: 60, RatePolls: 4, EvictAfter: d.EvictAfter, Hold: 4, RhythmCeiling: d.RhythmCeiling, EventHold: 30 * time.Second}},
		{time.Second, time.Second, 2, lag.Config{Window: 2, MinDistance: 500 * time.Millisecond, Samples: 2, TimePoints: 60, RatePolls: 2, EvictAfter: d.EvictAfter, Hold: 2, RhythmCeiling: d.RhythmCeiling, EventHold: time.Second}},
		// An interval that does not divide the window: whole polls only.
		{time.Minute, 7 * time.Second, 9, lag.Config{Window: 9, MinDistance: 3500 * time.Millisecond, Samples: 9, TimePoints: 60, RatePolls: 9, EvictAfter: d.EvictAfter, Hold: 4, RhythmCeiling: d.RhythmCeiling, EventHold: time.Minute}},
		// Many polls: memory is capped.
		{time.Hour, time.Second, 3601, lag.Config{Window: 10, MinDistance: 500 * time.Millisecond, Samples: 600, TimePoints: 600, RatePolls: 600, EvictAfter: d.EvictAfter, Hold: 4, RhythmCeiling: d.RhythmCeiling, EventHold: time.Hour}},
	} {
		cfg, polls := healthConfig(tc.window, tc.interval)
		if polls != tc.polls || cfg != tc.want {
			t.Errorf("window %s interval %s: %d polls %+v, want %d %+v", tc.window, tc.interval, polls, cfg, tc.polls, tc.want)
		}
		// The History takes the configuration as it is.
		if got := lag.NewHistory(cfg).Config(); got != cfg {
			t.Errorf("window %s interval %s: the history normalised %+v to %+v", tc.window, tc.interval, cfg, got)
		}
	}
}

// FuzzHealthConfig: any window and interval the flags accept give a
// configuration the History uses as it is, with every poll of a live owner
// counting as an observation and memory capped.
func FuzzHealthConfig(f *testing.F) {
	f.Add(int64(time.Minute), int64(5*time.Second))
	f.Add(int64(1), int64(1))
	f.Add(int64(math.MaxInt64), int64(1))
	f.Add(int64(3), int64(2))
	f.Fuzz(func(t *testing.T, window, interval int64) {
		if interval <= 0 || window < interval {
			return // rejected by parseHealth
		}
		w, i := time.Duration(window), time.Duration(interval)
		cfg, polls := healthConfig(w, i)
		if polls < 2 {
			t.Fatalf("window %d interval %d: %d polls", window, interval, polls)
		}
		if cfg.Window < 2 || cfg.Window > 10 || cfg.Window > polls || cfg.MinDistance <= 0 || cfg.MinDistance > i ||
			cfg.Samples < 2 || cfg.Samples > healthMaxSamples || cfg.RatePolls != cfg.Samples || cfg.TimePoints < cfg.Samples {
			t.Fatalf("window %d interval %d: %d polls, config %+v", window, interval, polls, cfg)
		}
		if got := lag.NewHistory(cfg).Config(); got != cfg {
			t.Fatalf("window %d interval %d: the history normalised %+v to %+v", window, interval, cfg, got)
		}
	})
}

func TestHealthProgress(t *testing.T) {
	if got, want := healthProgress("2 groups", 41600*time.Millisecond, 4, 13), "\r\x1b[Ksampling 2 groups: 42s left, 4/13 polls"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	if got, want := healthProgress("all groups", -time.Second, 13, 13), "\r\x1b[Ksampling all groups: 0s left, 13/13 polls"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if isTerminal(f) {
		t.Error("a file is not a terminal")
	}
}

// TestHealthSampler runs the sampling loop on synthetic polls: it polls the
// asked number of times, never closer than the interval, skips failed polls,
// and draws and finally clears its progress line.
func TestHealthSampler(t *testing.T) {
	var n atomic.Int32
	var times []time.Time
	var progress bytes.Buffer
	s := &healthSampler{
		polls:    5,
		interval: 20 * time.Millisecond,
		progress: &progress,
		what:     "1 group",
		poll: func(context.Context) (*kafka.Snapshot, error) {
			if n.Add(1) == 3 {
				return nil, errors.New("broker gone")
			}
			now := time.Now()
			times = append(times, now)
			return &kafka.Snapshot{Time: now, Groups: []kafka.Group{{Name: "g"}}}, nil
		},
	}
	first, _ := s.poll(context.Background())
	h := lag.NewHistory(lag.Config{})
	last, failed, lastErr, err := s.sample(context.Background(), h, first)
	if err != nil || failed != 1 || lastErr == nil || lastErr.Error() != "broker gone" {
		t.Fatalf("sample: err %v, %d failed (last %v); want one failed poll", err, failed, lastErr)
	}
	if n.Load() != 5 || h.Polls() != 4 || last.Time != times[len(times)-1] {
		t.Errorf("%d polls, %d added, last %v; want 5 polls, 4 added, the last one", n.Load(), h.Polls(), last.Time)
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < s.interval {
			t.Errorf("polls %d and %d only %s apart, want at least %s", i-1, i, gap, s.interval)
		}
	}
	out := progress.String()
	for done := 1; done < 5; done++ {
		if !strings.Contains(out, "sampling 1 group: ") || !strings.Contains(out, " left, "+string(rune('0'+done))+"/5 polls") {
			t.Errorf("progress %q lacks poll %d/5", out, done)
		}
	}
	if !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress %q does not end by clearing its line", out)
	}

	// A cancelled context stops sampling with its error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.progress = nil
	if _, _, _, err := s.sample(ctx, lag.NewHistory(lag.Config{}), first); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// healthJSON mirrors the documented `kgroups health -o json` schema.
type healthJSON struct {
	Groups []struct {
		Group    string  `json:"group"`
		Verdict  *string `json:"verdict"`
		Status   string  `json:"status"`
		Severity string  `json:"severity"`
		Complete bool    `json:"complete"`
		Judging  *struct {
			Observations int    `json:"observations"`
			Window       int    `json:"window"`
			Reason       string `json:"reason"`
		} `json:"judging"`
		TotalLag          *int64   `json:"totalLag"`
		MaxTimeLagSeconds *float64 `json:"maxTimeLagSeconds"`
		MaxTimeLagKind    string   `json:"maxTimeLagKind"`
		ProduceRate       *float64 `json:"produceRate"`
		ConsumeRate       *float64 `json:"consumeRate"`
		CatchUp           *struct {
			State      string   `json:"state"`
			Seconds    *float64 `json:"seconds"`
			Capped     bool     `json:"capped"`
			BehindRate *float64 `json:"behindRate"`
		} `json:"catchUp"`
		Partitions []struct {
			Topic           string   `json:"topic"`
			Partition       int32    `json:"partition"`
			Status          string   `json:"status"`
			CommittedOffset *int64   `json:"committedOffset"`
			LogEndOffset    *int64   `json:"logEndOffset"`
			Lag             *int64   `json:"lag"`
			TimeLagSeconds  *float64 `json:"timeLagSeconds"`
			TimeLagKind     string   `json:"timeLagKind"`
			ProduceRate     *float64 `json:"produceRate"`
			ConsumeRate     *float64 `json:"consumeRate"`
			Rewind          *struct {
				High int64 `json:"high"`
				Low  int64 `json:"low"`
			} `json:"rewind"`
		} `json:"partitions"`
	} `json:"groups"`
}

// healthCluster has one group per verdict that a short window can reach:
//
//	g-ok      Empty, committed at the log end (t-ok: 5): OK
//	g-stop    Empty, 5 behind (t-stop: 3 of 8), its consumer gone (a member
//	          joined and left, so it is not a simple group, which would
//	          wait for its rhythm): STOP
//	g-stall   a live member that committed 0 of 6 on t-stall/0 (t-stall/1 at
//	          its log end 4) and, during the window, commits 1, 2 and 3 at
//	          consecutive polls and then stands: STALL on partition 0, its
//	          silence past twice its rhythm and the floor
//	          (stallDuringWindow). Watched without those commits, it stood
//	          since before the window with no rhythm seen: JUDGING
//	g-rewind  a live member that committed 30 of 50 (t-rw) and, during the
//	          window, commits 25: REWIND (rewindDuringWindow). Watched
//	          without that commit, it is JUDGING as g-stall is
type healthCluster struct {
	*kafkatest.Cluster
	brokers       string
	rewind, stall *kafkatest.Member
}

func startHealthCluster(t *testing.T) *healthCluster {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	// A UTF-8 locale, whatever the machine's: lower bounds read "≥".
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_CTYPE", "")
	t.Setenv("LANG", "C.UTF-8")
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t-ok", 1)
	c.CreateTopic(t, "t-stop", 1)
	c.CreateTopic(t, "t-stall", 2)
	c.CreateTopic(t, "t-rw", 1)
	c.Produce(t, "t-ok", 0, 5, zeroTime)
	c.Produce(t, "t-stop", 0, 8, zeroTime)
	c.Produce(t, "t-stall", 0, 6, zeroTime)
	c.Produce(t, "t-stall", 1, 4, zeroTime)
	c.Produce(t, "t-rw", 0, 50, zeroTime)
	c.Commit(t, "g-ok", map[string]map[int32]int64{"t-ok": {0: 5}})
	c.JoinAndLeave(t, "g-stop", []string{"t-stop"})
	c.Commit(t, "g-stop", map[string]map[int32]int64{"t-stop": {0: 3}})
	c.Commit(t, "g-stall", map[string]map[int32]int64{"t-stall": {0: 0, 1: 4}})
	hc := &healthCluster{Cluster: c, brokers: strings.Join(c.Addrs, ",")}
	hc.stall = c.Join(t, "g-stall", []string{"t-stall"})
	hc.rewind = c.Join(t, "g-rewind", []string{"t-rw"})
	c.WaitStable(t, "g-stall", 1, 2)
	c.WaitStable(t, "g-rewind", 1, 1)
	_ = hc.commit(t, 30) // a failure is reported by commit itself
	return hc
}

// commit makes g-rewind's live member commit offset on t-rw/0.
func (c *healthCluster) commit(t *testing.T, offset int64) error {
	t.Helper()
	return commitAs(t, c.rewind, "t-rw", offset)
}

// commitAs makes the live member m commit offset on partition 0 of topic.
func commitAs(t *testing.T, m *kafkatest.Member, topic string, offset int64) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	cerr := kafkatest.CommitAs(ctx, m.Client, topic, 0, offset)
	if cerr != nil {
		t.Errorf("commit %d: %v", offset, cerr)
	}
	return cerr
}

// rewindDuringWindow makes g-rewind's member commit 25 once kgroups has
// fetched g-rewind's offsets twice: the first two polls are certain to have
// seen 30, so the sampled window holds the drop from 30 to 25 whatever the
// timing. It returns a channel that yields the commit's result.
func (c *healthCluster) rewindDuringWindow(t *testing.T) <-chan error {
	t.Helper()
	fetched := make(chan struct{}, 1)
	var n atomic.Int32
	c.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.OffsetFetchRequest)
		asks := r.Group == "g-rewind"
		for _, g := range r.Groups {
			asks = asks || g.Group == "g-rewind"
		}
		if asks && n.Add(1) == 3 {
			fetched <- struct{}{}
		}
		return nil, nil, false
	})
	done := make(chan error, 1)
	go func() {
		select {
		case <-fetched:
			done <- c.commit(t, 25)
		case <-time.After(kafkatest.WaitTimeout):
			done <- errors.New("kgroups never fetched g-rewind's offsets three times")
		}
	}()
	return done
}

// stallDuringWindow gives g-stall's member the rhythm a real consumer has
// before it stops: once kgroups has fetched g-stall's offsets twice, the
// member commits 1 on t-stall/0, and once a fetch has seen each commit,
// the next, to 3; then it stands. The window sees three moves a poll or
// two apart (the second and third record the rhythm twice: the wait
// before the first began at the first poll and counts for nothing, and a
// rhythm seen once is no rhythm yet) and then the commit stand for the
// rest of it, past the floor and twice that rhythm: STALL. It returns a
// channel that yields the commits' result.
func (c *healthCluster) stallDuringWindow(t *testing.T) <-chan error {
	t.Helper()
	fetched := make(chan struct{}, 1)
	var n atomic.Int32
	c.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.OffsetFetchRequest)
		asks := r.Group == "g-stall"
		for _, g := range r.Groups {
			asks = asks || g.Group == "g-stall"
		}
		if asks && n.Add(1) >= 2 {
			select {
			case fetched <- struct{}{}:
			default:
			}
		}
		return nil, nil, false
	})
	done := make(chan error, 1)
	go func() {
		for _, offset := range []int64{1, 2, 3} {
			// A fetch handled after the previous commit: it saw it.
			select {
			case <-fetched:
			default:
			}
			select {
			case <-fetched:
			case <-time.After(kafkatest.WaitTimeout):
				done <- errors.New("kgroups stopped fetching g-stall's offsets")
				return
			}
			if err := commitAs(t, c.stall, "t-stall", offset); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	return done
}

// fields splits table output into lines of whitespace-separated fields.
func fields(out string) [][]string {
	var ls [][]string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		ls = append(ls, strings.Fields(l))
	}
	return ls
}

// exactOverWindow checks a time lag read from the record at the commit:
// marked "=", and at least the 2s window, since the record was written
// before the first poll.
func exactOverWindow(t *testing.T, cell string) {
	t.Helper()
	d, err := time.ParseDuration(strings.TrimPrefix(cell, "="))
	if !strings.HasPrefix(cell, "=") || err != nil || d < 2*time.Second {
		t.Errorf("time lag cell %q, want an exact time lag of at least 2s marked \"=\"", cell)
	}
}

func TestHealthCLI(t *testing.T) {
	c := startHealthCluster(t)
	window := []string{"--window", "2s", "--interval", "200ms"}
	health := func(args ...string) (int, string, string) {
		return kg(t, append(append([]string{"-b", c.brokers, "health"}, args...), window...)...)
	}

	t.Run("healthy: exit 0", func(t *testing.T) {
		code, stdout, stderr := health("g-ok", "--fail-on", "warn")
		expectRun(t, code, stderr, 0, "")
		// Nothing moved: rates are exactly 0 and the lag is 0, so the
		// whole table is exact.
		expectText(t, "stdout", stdout, lines(
			"GROUP  STATUS  TOTAL-LAG  MAX-TIME-LAG  PRODUCE/S  CONSUME/S",
			"g-ok   OK              0            0s        0.0        0.0",
		))
	})

	t.Run("every verdict, json: exit 3 at ERR", func(t *testing.T) {
		rewound, stalled := c.rewindDuringWindow(t), c.stallDuringWindow(t)
		code, stdout, stderr := health("g-ok", "g-stop", "g-stall", "g-rewind", "-o", "json", "--fail-on", "ERR")
		if err := <-rewound; err != nil {
			t.Fatal(err)
		}
		if err := <-stalled; err != nil {
			t.Fatal(err)
		}
		expectRun(t, code, stderr, 3, "kgroups: 3 groups at or above ERR: g-stop (STOP), g-stall (STALL), g-rewind (REWIND)\n")
		var doc healthJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("json: %v\n%s", err, stdout)
		}
		type part struct {
			topic                 string
			partition             int32
			status                string
			committed, end, lag   int64
			timeLagKind           string
			rewindHigh, rewindLow int64
		}
		type group struct {
			name, verdict    string
			status, severity string
			complete         bool
			totalLag         int64
			maxKind          string
			parts            []part
		}
		// g-stop is incomplete: without an owner its unchanged offset
		// was observed once, which is all STOP needs. Every lagging
		// commit is at a record written before the first poll: its
		// record is read, so its time lag is exact. g-stall's STALL is
		// its silence after its commit of 3, past the floor and twice
		// the rhythm its commits of 1, 2 and 3 showed.
		want := []group{
			{"g-ok", "OK", "OK", "OK", true, 0, "caught-up", []part{{"t-ok", 0, "OK", 5, 5, 0, "caught-up", 0, 0}}},
			{"g-stop", "ERR STOP", "STOP", "ERR", false, 5, "exact", []part{{"t-stop", 0, "STOP", 3, 8, 5, "exact", 0, 0}}},
			{"g-stall", "ERR STALL", "STALL", "ERR", true, 3, "exact", []part{
				{"t-stall", 0, "STALL", 3, 6, 3, "exact", 0, 0},
				{"t-stall", 1, "OK", 4, 4, 0, "caught-up", 0, 0},
			}},
			{"g-rewind", "ERR REWIND", "REWIND", "ERR", true, 25, "exact", []part{{"t-rw", 0, "REWIND", 25, 50, 25, "exact", 30, 25}}},
		}
		if len(doc.Groups) != len(want) {
			t.Fatalf("%d groups, want %d:\n%s", len(doc.Groups), len(want), stdout)
		}
		for i, w := range want {
			g := doc.Groups[i]
			if g.Group != w.name || g.Verdict == nil || *g.Verdict != w.verdict || g.Status != w.status || g.Severity != w.severity || g.Complete != w.complete ||
				g.TotalLag == nil || *g.TotalLag != w.totalLag || g.MaxTimeLagKind != w.maxKind || g.MaxTimeLagSeconds == nil {
				t.Errorf("group %d: %s %s %s complete %v lag %v max time lag %v %s; want %+v", i, g.Group, g.Status, g.Severity, g.Complete, g.TotalLag, g.MaxTimeLagSeconds, g.MaxTimeLagKind, w)
				continue
			}
			// Nothing was produced while sampling, and no commit
			// moved forwards but g-stall's three, from 0 to 3.
			if g.ProduceRate == nil || *g.ProduceRate != 0 || g.ConsumeRate == nil || (*g.ConsumeRate != 0) != (g.Group == "g-stall") {
				t.Errorf("%s: rates %v %v, want 0 and 0 (above 0 for g-stall)", g.Group, g.ProduceRate, g.ConsumeRate)
			}
			if w.maxKind == "at-least" && *g.MaxTimeLagSeconds < 2 {
				t.Errorf("%s: max time lag %v, want a bound of at least the 2s window", g.Group, *g.MaxTimeLagSeconds)
			}
			if w.maxKind == "caught-up" && *g.MaxTimeLagSeconds != 0 {
				t.Errorf("%s: max time lag %v, want 0", g.Group, *g.MaxTimeLagSeconds)
			}
			if len(g.Partitions) != len(w.parts) {
				t.Errorf("%s: %d partitions, want %d", g.Group, len(g.Partitions), len(w.parts))
				continue
			}
			for k, wp := range w.parts {
				p := g.Partitions[k]
				ok := p.Topic == wp.topic && p.Partition == wp.partition && p.Status == wp.status &&
					p.CommittedOffset != nil && *p.CommittedOffset == wp.committed &&
					p.LogEndOffset != nil && *p.LogEndOffset == wp.end && p.Lag != nil && *p.Lag == wp.lag &&
					p.TimeLagKind == wp.timeLagKind && p.TimeLagSeconds != nil
				if wp.rewindHigh > 0 {
					ok = ok && p.Rewind != nil && p.Rewind.High == wp.rewindHigh && p.Rewind.Low == wp.rewindLow
				} else {
					ok = ok && p.Rewind == nil
				}
				if !ok {
					b, _ := json.Marshal(p)
					t.Errorf("%s partition %d: %s, want %+v", g.Group, k, b, wp)
				}
			}
		}
	})

	t.Run("unhealthy table: exit 3 at WARN", func(t *testing.T) {
		code, stdout, stderr := health("g-stop", "--fail-on", "WARN")
		expectRun(t, code, stderr, 3, "kgroups: 1 group at or above WARN: g-stop (STOP)\n")
		got := fields(stdout)
		// The group's status is the UI's verdict, "ERR STOP": two fields.
		// Its cause: the Empty group had no members at any poll.
		want := [][]string{
			{"GROUP", "STATUS", "TOTAL-LAG", "MAX-TIME-LAG", "PRODUCE/S", "CONSUME/S", "CAUSE"},
			{"g-stop", "ERR", "STOP", "5", "<time lag>", "0.0", "0.0", "no", "members", "while", "watched"},
			{},
			{"GROUP", "TOPIC", "PARTITION", "STATUS", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "TIME-LAG", "REWIND"},
			{"g-stop", "t-stop", "0", "STOP", "3", "8", "5", "<time lag>", "-"},
		}
		if len(got) != len(want) || len(got[1]) != 11 || len(got[4]) != 9 {
			t.Fatalf("stdout:\n%s", stdout)
		}
		exactOverWindow(t, got[1][4])
		exactOverWindow(t, got[4][7])
		got[1][4], got[4][7] = "<time lag>", "<time lag>"
		if !reflect.DeepEqual(got, want) {
			t.Errorf("stdout fields %q\nwant %q", got, want)
		}

		// Without --fail-on the verdict is printed and the exit is 0.
		code, _, stderr = health("g-stop")
		expectRun(t, code, stderr, 0, "")

		// Outside a UTF-8 locale the exact mark is the same.
		t.Setenv("LC_ALL", "C")
		code, stdout, stderr = health("g-stop")
		expectRun(t, code, stderr, 0, "")
		if got = fields(stdout); len(got) != len(want) || len(got[1]) != 11 || len(got[4]) != 9 {
			t.Fatalf("stdout:\n%s", stdout)
		}
		exactOverWindow(t, got[1][4])
		exactOverWindow(t, got[4][7])
	})

	t.Run("all groups", func(t *testing.T) {
		code, stdout, stderr := kg(t, "-b", c.brokers, "health", "--all-groups", "-o", "json", "--window", "400ms", "--interval", "200ms")
		expectRun(t, code, stderr, 0, "")
		var doc healthJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("json: %v\n%s", err, stdout)
		}
		var names []string
		for _, g := range doc.Groups {
			names = append(names, g.Group)
		}
		if want := []string{"g-ok", "g-rewind", "g-stall", "g-stop"}; !reflect.DeepEqual(names, want) {
			t.Errorf("groups %q, want %q", names, want)
		}
		// The catch-up as the header words it: g-ok caught up; g-stop,
		// 5 behind with nothing produced or consumed, not catching up
		// (falling behind by 0 a second).
		for _, g := range doc.Groups {
			switch c := g.CatchUp; g.Group {
			case "g-ok":
				if c == nil || c.State != "caught-up" || c.Seconds != nil || c.BehindRate != nil {
					t.Errorf("g-ok catchUp %+v, want caught-up", c)
				}
			case "g-stop":
				if c == nil || c.State != "falling-behind" || c.BehindRate == nil || *c.BehindRate != 0 || c.Seconds != nil || c.Capped {
					t.Errorf("g-stop catchUp %+v, want falling-behind by 0", c)
				}
			}
		}
	})

	// The groups settings serve uses choose among all groups: archived
	// groups (Empty, no members, commits kept: g-ok and g-stop) are left
	// out with --skip-empty, so --fail-on ERR does not fail on g-stop's
	// STOP; and a pattern holding a comma inside braces is one pattern.
	t.Run("all groups, filtered as serve filters them", func(t *testing.T) {
		groups := func(args ...string) []string {
			t.Helper()
			code, stdout, stderr := kg(t, append([]string{"-b", c.brokers, "health", "--all-groups", "-o", "json", "--window", "400ms", "--interval", "200ms"}, args...)...)
			expectRun(t, code, stderr, 0, "")
			var doc healthJSON
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("json: %v\n%s", err, stdout)
			}
			var names []string
			for _, g := range doc.Groups {
				names = append(names, g.Group)
			}
			return names
		}
		if got, want := groups("--skip-empty"), []string{"g-rewind", "g-stall"}; !reflect.DeepEqual(got, want) {
			t.Errorf("--skip-empty: groups %q, want %q", got, want)
		}
		if got, want := groups("--allow-groups", "g-[a-z]{2,4}", "--deny-groups", "g-s.{1,3}"), []string{"g-ok"}; !reflect.DeepEqual(got, want) {
			t.Errorf("allow and deny with braces: groups %q, want %q", got, want)
		}
		// The serve section's older name, as a variable, applies too.
		t.Setenv("KGROUPS_SERVE_SKIP_EMPTY", "true")
		if got, want := groups(), []string{"g-rewind", "g-stall"}; !reflect.DeepEqual(got, want) {
			t.Errorf("KGROUPS_SERVE_SKIP_EMPTY: groups %q, want %q", got, want)
		}
	})

	t.Run("filters as flags need --all-groups", func(t *testing.T) {
		code, stdout, stderr := kg(t, "-b", c.brokers, "health", "g-ok", "--skip-empty")
		expectRun(t, code, stderr, 2, "kgroups: --skip-empty chooses among all groups: give --all-groups with it, or name the groups without it\nRun 'kgroups health --help' for usage.\n")
		expectText(t, "stdout", stdout, "")
	})

	t.Run("unknown group: exit 1 before sampling", func(t *testing.T) {
		// A ten-minute window would outlast the test's deadline: the
		// command must fail at the first poll.
		code, stdout, stderr := kg(t, "-b", c.brokers, "health", "g-ok", "nope", "other", "--window", "10m")
		expectRun(t, code, stderr, 1, "kgroups: group \"nope\" not found\nkgroups: group \"other\" not found\n")
		expectText(t, "stdout", stdout, "")
	})
}
