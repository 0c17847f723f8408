//go:build realkafka

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// TestRealRewindHoldsItsWindow: a Java consumer on the default autocommit
// (every 5 s) keeps up with a producer of ten records a second; while
// `kgroups health --window 90s --interval 2s` watches, it leaves,
// kafka-consumer-groups.sh resets its group to the earliest offset, and a
// Java consumer at half the producer's rate takes its place, committing
// every 5 s from there. The REWIND is found in the partition's commit
// observations, ten of them, which its commits at every 2 s poll refill
// within 20 s; health judges its window at the end, about a minute after
// the reset, and must still say REWIND, with the offsets of the drop:
// an event holds for the whole window.
func TestRealRewindHoldsItsWindow(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	topic, group := c.Name("rw"), c.Name("rw-g")
	c.CreateTopic(t, topic, 1)

	c.ProduceSteadily(t, 100*time.Millisecond, func(int) { c.ProduceAsync(topic, 0) })

	j := c.StartClients(t)
	base := []string{"group.id=" + group, "auto.offset.reset=earliest", "session.timeout.ms=10000", "heartbeat.interval.ms=500"}
	j.Consumer(t, "fast", []string{topic}, base...)
	c.Settled(t, map[string]realkafka.Want{group: {Members: 1}})
	committedAt := func() int64 {
		os, err := c.Admin().FetchOffsets(context.Background(), group)
		if o, ok := os.Lookup(topic, 0); err == nil && ok {
			return o.At
		}
		return -1
	}
	deadline := time.Now().Add(realkafka.Wait)
	for committedAt() < 200 {
		if time.Now().After(deadline) {
			t.Fatalf("%s never committed 200 records in", group)
		}
		time.Sleep(500 * time.Millisecond)
	}

	hctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var hout, herr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(hctx, []string{"-b", c.Bootstrap, "health", group, "--window", "90s", "--interval", "2s", "-o", "json"},
			strings.NewReader(""), &hout, &herr)
	}()
	time.Sleep(20 * time.Second)
	j.Close(t, "fast")
	c.Settled(t, map[string]realkafka.Want{group: {Members: 0}})
	high := committedAt()
	c.Groups(t, "--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute")
	if low := committedAt(); low != 0 {
		t.Fatalf("after kafka-consumer-groups.sh --reset-offsets --to-earliest: committed %d, want 0", low)
	}
	j.Consumer(t, "slow", []string{topic}, append(base, "sleep.ms=200", "max.poll.records=2")...)
	resetAt := time.Now()

	var code int
	select {
	case code = <-done:
	case <-hctx.Done():
		t.Fatal("health did not end its 90 s window within 4 minutes")
	}
	if code != 0 {
		t.Fatalf("health exited %d:\n%s%s", code, hout.String(), herr.String())
	}
	if since := time.Since(resetAt); since < 40*time.Second {
		t.Fatalf("health ended %v after the reset; the test needs the ring of observations refilled (20 s) well before", since)
	}
	var doc struct {
		Groups []struct {
			Group      string `json:"group"`
			Verdict    string `json:"verdict"`
			Cause      string `json:"cause"`
			Partitions []struct {
				Status string `json:"status"`
				Rewind *struct {
					High int64 `json:"high"`
					Low  int64 `json:"low"`
				} `json:"rewind"`
			} `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(hout.Bytes(), &doc); err != nil {
		t.Fatalf("health -o json: %v\n%s", err, hout.String())
	}
	if len(doc.Groups) != 1 || len(doc.Groups[0].Partitions) != 1 {
		t.Fatalf("health judged %d groups, want 1 with 1 partition:\n%s", len(doc.Groups), hout.String())
	}
	g := doc.Groups[0]
	p := g.Partitions[0]
	t.Logf("health: %s %q (cause %q), partition %s, rewind %+v; reset %d -> 0 %v before the window ended", g.Group, g.Verdict, g.Cause, p.Status, p.Rewind, high, time.Since(resetAt).Round(time.Second))
	if g.Verdict != "ERR REWIND" || p.Status != "REWIND" {
		t.Errorf("health judged %s %q (partition %s), want ERR REWIND for a reset within its window:\n%s", g.Group, g.Verdict, p.Status, hout.String())
	}
	if p.Rewind == nil || p.Rewind.Low != 0 || p.Rewind.High < high-50 || p.Rewind.High > high {
		t.Errorf("health's rewind %+v, want from about %d (the last commit it saw before the reset) to 0", p.Rewind, high)
	}
}
