package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/kgroups/kgroups/kafka/lag"
	"math"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/tui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// replay hands out recorded polls in turn and reads records with the
// real client.
type replay struct {
	polls []*kafka.Snapshot
	next  int
	read  func(context.Context, []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error)
}

func (r *replay) Poll(context.Context) (*kafka.Snapshot, error) {
	if r.next == len(r.polls) {
		return nil, context.DeadlineExceeded
	}
	s := r.polls[r.next]
	r.next++
	return s, nil
}

func (r *replay) CommittedTimestamps(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
	return r.read(ctx, parts)
}

// TestVerdictsUIHealthServeAgree: the UI's root model, `kgroups health`
// and `kgroups serve`, given the same polls of a kfake cluster with real
// kgo members and reading records from it, and the same window (health's
// --window, serve's --window, the UI's lag settings), give every group
// the same verdict and the same time lag. Without --window, serve judges
// with the UI's own history (TestServeJudgesWithTheUIsHistory).
func TestVerdictsUIHealthServeAgree(t *testing.T) {
	c := startHealthCluster(t)
	cl := c.Client(t)
	const interval = 200 * time.Millisecond
	p, err := parseHealth(healthGroups, healthFlags{window: 10 * interval, interval: interval, format: formatJSON})
	if err != nil {
		t.Fatal(err)
	}
	// g-rewind rewinds and g-stall commits three times then stands during
	// the recorded polls, so that the window decides every group: REWIND
	// and STALL (a consumer stuck since before it would be JUDGING).
	rewound, stalled := c.rewindDuringWindow(t), c.stallDuringWindow(t)
	var polls []*kafka.Snapshot
	for range p.polls {
		s, err := cl.Poll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		polls = append(polls, s)
		time.Sleep(interval)
	}
	for _, done := range []<-chan error{rewound, stalled} {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	last := polls[len(polls)-1].Time

	// health, in JSON (exact values) and as a table (the words the UI
	// shows).
	healthRun := func(format string) string {
		var stdout, stderr bytes.Buffer
		a := newApp(strings.NewReader(""), &stdout, &stderr, func(k string) string { return map[string]string{"LANG": "C.UTF-8"}[k] })
		o := p
		o.format = format
		r := &replay{polls: polls, read: cl.CommittedTimestamps}
		o.read = r.CommittedTimestamps
		if err := sampleHealth(context.Background(), a, r.Poll, o); err != nil {
			var ec exitCodeError
			if !errors.As(err, &ec) {
				t.Fatalf("health: %v\n%s", err, stderr.String())
			}
		}
		return stdout.String()
	}
	var doc healthJSON
	if err := json.Unmarshal([]byte(healthRun(formatJSON)), &doc); err != nil {
		t.Fatal(err)
	}
	table := healthRun(formatTable)
	healthWords := map[string][2]string{} // status words, time lag
	summary, _, _ := strings.Cut(table, "\n\n")
	for _, l := range strings.Split(withoutColumn(summary, "CAUSE"), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 6 {
			continue
		}
		healthWords[f[0]] = [2]string{strings.Join(f[1:len(f)-4], " "), f[len(f)-3]}
	}

	// serve: its exporter polls the same snapshots.
	r := &replay{polls: polls, read: cl.CommittedTimestamps}
	e := newExporter(serveOptions{interval: interval, timeout: time.Minute, window: 10 * interval}, r.Poll, r.CommittedTimestamps, [2]string{"test", "go"})
	if e.loop.Tracker.Config() != p.cfg {
		t.Fatalf("serve judges with %+v, health with %+v", e.loop.Tracker.Config(), p.cfg)
	}
	for range polls {
		e.pollOnce(context.Background())
	}
	fams := parseExposition(t, e.page.Load().text.bytes())
	verdicts := series(fams, "kgroups_group_verdict", "group")
	times := series(fams, "kgroups_group_time_lag_seconds", "group")

	// The UI: the real root model, polled as many times.
	fp := &replay{polls: polls, read: cl.CommittedTimestamps}
	m := tui.New(tui.Options{
		ContextInfo: tui.ContextInfo{Refresh: time.Hour},
		Poller:      fp,
		Lag:         p.cfg,
		Now:         func() time.Time { return last },
		After:       noTimers,
		Getenv:      func(k string) string { return map[string]string{"LANG": "C.UTF-8", "NO_COLOR": "1"}[k] },
	})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	drive(t, m, m.Init())
	for fp.next < len(polls) {
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
		drive(t, m, cmd)
	}
	// One more round for the exact reads the last poll asked for.
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	drive(t, m, cmd)
	screen := viewtest.Strip(m.View())

	if len(doc.Groups) != len(healthGroups) {
		t.Fatalf("health judged %d groups", len(doc.Groups))
	}
	decidedCount := 0
	for _, g := range doc.Groups {
		v := verdicts[g.Group]
		if g.Verdict == nil || v == nil {
			t.Errorf("%s: health %v, serve %v", g.Group, g.Verdict, v)
			continue
		}
		want := g.Status
		if g.Judging != nil {
			want = "JUDGING"
		}
		if labelOf(v, "status") != want {
			t.Errorf("%s: serve says %s, health %s", g.Group, labelOf(v, "status"), *g.Verdict)
		}
		if want != "JUDGING" {
			decidedCount++
		}
		if w := map[string]string{"g-ok": "OK", "g-stop": "STOP", "g-stall": "STALL", "g-rewind": "REWIND"}[g.Group]; want != w {
			t.Errorf("%s: %s, want %s", g.Group, want, w)
		}
		// health's JSON gives milliseconds.
		if g.MaxTimeLagSeconds != nil && !(math.Abs(value(times[g.Group])-*g.MaxTimeLagSeconds) <= 0.0005) {
			t.Errorf("%s: serve's time lag %v, health's %v", g.Group, value(times[g.Group]), *g.MaxTimeLagSeconds)
		}
		// The UI's groups screen shows the verdict and the time lag
		// in the words of health's table.
		words := healthWords[g.Group]
		row := screenRow(screen, g.Group)
		if row == "" || words[0] != *g.Verdict || !strings.Contains(row, " "+words[0]+" ") || !strings.Contains(row, " "+words[1]+" ") {
			t.Errorf("%s: the UI shows %q; health says %q, %q", g.Group, row, *g.Verdict, words)
		}
	}
	if decidedCount != len(healthGroups) {
		t.Errorf("%d of %d verdicts decided: the window should decide them all\n%s", decidedCount, len(healthGroups), table)
	}
}

// screenRow is the groups screen's line for group name.
func screenRow(screen, name string) string {
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "▶")), "! "))
		if len(f) > 2 && f[0] == name {
			return l + " "
		}
	}
	return ""
}

// TestServeJudgesWithTheUIsHistory: without --window, serve's history is
// the one the UI keeps when its lag settings are left zero (the root model
// as kgroups runs it), at any refresh: the same polls, the same verdicts.
// With --window it is health's for that window and interval.
func TestServeJudgesWithTheUIsHistory(t *testing.T) {
	for _, refresh := range []time.Duration{time.Second, 5 * time.Second, time.Minute} {
		e := newExporter(serveOptions{interval: refresh, timeout: time.Minute}, nil, nil, [2]string{"test", "go"})
		ui := lag.NewTracker(tui.Options{}.Lag).Config()
		if got := e.loop.Tracker.Config(); got != ui {
			t.Errorf("--refresh %s: serve judges with %+v, the UI with %+v", refresh, got, ui)
		}
		e = newExporter(serveOptions{interval: refresh, timeout: time.Minute, window: 10 * refresh}, nil, nil, [2]string{"test", "go"})
		h, _ := healthConfig(10*refresh, refresh)
		if got := e.loop.Tracker.Config(); got != h {
			t.Errorf("--refresh %s --window %s: serve judges with %+v, health with %+v", refresh, 10*refresh, got, h)
		}
	}
}
