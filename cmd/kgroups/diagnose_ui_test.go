package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/screens/diagnosis"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestDiagnoseAgreesWithTab feeds the same polls of a real cluster (an open
// transaction, a stalled member, a topic keeping records one minute) and
// the same reader to `kgroups diagnose`'s code path and to the Diagnosis
// tab, answering the tab's requests as the root does: both report the same
// findings, with the same ids, severities and evidence, byte for byte.
func TestDiagnoseAgreesWithTab(t *testing.T) {
	c := kafkatest.NewCluster(t, kfake.BrokerConfigs(map[string]string{"transaction.max.timeout.ms": "3600000"}))
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()

	c.CreateTopic(t, "txn", 1)
	c.Produce(t, "txn", 0, 3, time.Time{})
	txp, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("tx-open"),
		kgo.TransactionTimeout(30*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(txp.Close)
	if err := txp.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if err := txp.ProduceSync(ctx, &kgo.Record{Topic: "txn", Partition: 0, Value: []byte("t")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	c.Commit(t, "g-txn", map[string]map[int32]int64{"txn": {0: 3}})

	c.CreateTopic(t, "stall", 1)
	c.Produce(t, "stall", 0, 10, time.Now().Add(-time.Minute))
	c.Commit(t, "g-stall", map[string]map[int32]int64{"stall": {0: 3}})
	stall := c.Join(t, "g-stall", []string{"stall"}, kgo.DisableAutoCommit(), kgo.ClientID("worker-1"))
	c.WaitStable(t, "g-stall", 1, 1)

	c.CreateTopic(t, "short", 1)
	c.Produce(t, "short", 0, 3, time.Now().Add(-3*time.Minute))
	c.Commit(t, "g-old", map[string]map[int32]int64{"short": {0: 0}})
	alter := []kadm.AlterConfig{{Op: kadm.SetConfig, Name: "retention.ms", Value: kadm.StringPtr("60000")}}
	if resp, err := c.Admin().AlterTopicConfigs(ctx, alter, "short"); err != nil || resp[0].Err != nil {
		t.Fatalf("alter retention.ms: %v %v", err, resp)
	}

	cl := c.Client(t)
	names := []string{"g-old", "g-stall", "g-txn"}
	// Seven polls, stamped 61s apart and in the past, so that the window
	// spans minutes and the sampler never waits. g-stall's member commits
	// 4, 5 and 6 after the first three polls, one poll apart (its rhythm,
	// seen twice), and then stands for three: past the floor (two polls)
	// and twice its rhythm, it is STALL at record 6. (Stuck since before
	// the first poll, it would be JUDGING for the rhythm ceiling.)
	const polls = 7
	start := time.Now().Add(-7 * time.Minute)
	var snaps []*kafka.Snapshot
	for i := range polls {
		if i >= 1 && i <= 3 {
			if err := commitAs(t, stall, "stall", int64(3+i)); err != nil {
				t.Fatal(err)
			}
		}
		snap, err := cl.PollGroups(ctx, names...)
		if err != nil {
			t.Fatal(err)
		}
		snap.Time = start.Add(time.Duration(i) * 61 * time.Second)
		snaps = append(snaps, snap)
	}
	cfg := lag.Config{Window: 3, MinDistance: time.Nanosecond}

	// The command's path.
	next := 0
	replay := func(context.Context) (*kafka.Snapshot, error) {
		s := snaps[next]
		next++
		return s, nil
	}
	var stdout, stderr bytes.Buffer
	a := newApp(nil, &stdout, &stderr, func(string) string { return "" })
	conn := []string{"--context", "prod eu"}
	o := diagnoseOptions{healthOptions: healthOptions{names: names, polls: polls, interval: time.Nanosecond, cfg: cfg, format: formatJSON}, conn: conn}
	if err := sampleDiagnose(ctx, a, replay, diagnose.NewReader(cl), o); err != nil {
		t.Fatalf("diagnose: %v\n%s", err, stderr.String())
	}
	var doc struct {
		Groups []struct {
			Group    string `json:"group"`
			Findings []struct {
				ID       string          `json:"id"`
				Severity string          `json:"severity"`
				Evidence json.RawMessage `json:"evidence"`
				Next     string          `json:"next"`
			} `json:"findings"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v in %s", err, stdout.String())
	}

	// The tab's path, one tab per group, its requests answered as the
	// root answers them.
	rd := diagnose.NewReader(cl)
	tracker := lag.NewTracker(cfg)
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	tabs := make(map[string]*diagnosis.Model)
	for _, n := range names {
		tabs[n] = diagnosis.New(viewtest.Common(120, 40, true), n, tl)
		tabs[n].Connection = conn
		tabs[n].Update(ui.TabShownMsg{})
	}
	for _, snap := range snaps {
		tracker.Add(snap)
		tl.Add(snap)
		for _, n := range names {
			cmd := tabs[n].Update(ui.DataMsg{Snapshot: snap, Lag: tracker})
			for cmd != nil {
				req, ok := cmd().(ui.DiagnosisRequestMsg)
				if !ok {
					t.Fatalf("the tab sent %T, want a DiagnosisRequestMsg", cmd())
				}
				reads, err := rd.Read(ctx, req.Wants)
				cmd = tabs[n].Update(ui.DiagnosisMsg{ID: req.ID, Group: req.Group, Wants: req.Wants, Reads: reads, Err: err})
			}
		}
	}

	if len(doc.Groups) != len(names) {
		t.Fatalf("diagnose reported %d groups, want %d: %s", len(doc.Groups), len(names), stdout.String())
	}
	want := map[string]string{"g-old": diagnose.IDBehindRetention, "g-stall": diagnose.IDStalledAtRecord, "g-txn": diagnose.IDOpenTransaction}
	for _, g := range doc.Groups {
		fs := tabs[g.Group].Findings()
		if len(fs) != len(g.Findings) {
			t.Errorf("%s: the tab has %d findings, diagnose %d", g.Group, len(fs), len(g.Findings))
			continue
		}
		found := false
		for i, f := range g.Findings {
			ev, err := json.Marshal(fs[i].Evidence)
			if err != nil {
				t.Fatal(err)
			}
			var cli bytes.Buffer
			if err := json.Compact(&cli, f.Evidence); err != nil {
				t.Fatal(err)
			}
			if fs[i].ID != f.ID || fs[i].Severity.String() != f.Severity || !bytes.Equal(ev, cli.Bytes()) {
				t.Errorf("%s finding %d:\n tab      %s %s %s\n diagnose %s %s %s", g.Group, i, fs[i].ID, fs[i].Severity, ev, f.ID, f.Severity, cli.Bytes())
			}
			if got := render.DiagnoseNext(&fs[i]); got != f.Next {
				t.Errorf("%s finding %d NEXT:\n tab      %s\n diagnose %s", g.Group, i, got, f.Next)
			}
			found = found || f.ID == want[g.Group]
			if f.ID == want[g.Group] && f.ID != diagnose.IDOpenTransaction && !strings.HasPrefix(f.Next, "kgroups --context 'prod eu' ") {
				t.Errorf("%s: NEXT %q does not name the context first", g.Group, f.Next)
			}
		}
		if !found {
			t.Errorf("%s: no %s finding in %s", g.Group, want[g.Group], stdout.String())
		}
	}
}
