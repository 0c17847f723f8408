//go:build realkafka

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// TestRealVerdicts judges three real consumers of one steady producer (ten
// records a second) with kgroups health: a Java consumer on the default
// autocommit (every 5 s), a Java consumer slower than the producer (five
// records a second), and a Kafka Streams app on its default 30 s commit
// interval. The first and the last keep up and must be OK; the slow one
// falls behind and must be WARN. Its time lag must never be above the
// truth: the age of the record at its committed offset, read after health
// returned.
//
// Two sarama consumers ride along, a library the rules were not written
// on: one on sarama's default autocommit (every second, of the records it
// marked) keeps up and must be OK, one that takes 200 ms a record falls
// behind and must be WARN. And two groups without members: a simple group (offsets
// committed once by an admin client, as a job that assigns its partitions
// itself and commits on checkpoints leaves them; Kafka keeps no protocol
// type for it) waits for its rhythm (JUDGING until 5m of it), and a group
// whose Java consumer left (it keeps the protocol type "consumer") is
// STOP with "no members while watched".
func TestRealVerdicts(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	topic, out := c.Name("v"), c.Name("v-out")
	c.CreateTopic(t, topic, 1)
	c.CreateTopic(t, out, 1)
	auto, slow, streams := c.Name("v-auto"), c.Name("v-slow"), c.Name("v-streams")
	simple, gone := c.Name("v-simple"), c.Name("v-gone")
	sarama, saramaSlow := c.Name("v-sarama"), c.Name("v-sarama-slow")

	c.ProduceSteadily(t, 100*time.Millisecond, func(int) { c.ProduceAsync(topic, 0) })

	j := c.StartClients(t)
	base := []string{"auto.offset.reset=earliest", "session.timeout.ms=10000", "heartbeat.interval.ms=500"}
	j.Consumer(t, "auto", []string{topic}, append([]string{"group.id=" + auto}, base...)...)
	j.Consumer(t, "slow", []string{topic}, append([]string{"group.id=" + slow, "sleep.ms=200", "max.poll.records=2"}, base...)...)
	j.Streams(t, streams, topic, out, "application.id="+streams, "group.protocol=streams", "state.dir="+t.TempDir())
	j.Consumer(t, "gone", []string{topic}, append([]string{"group.id=" + gone}, base...)...)
	capture := buildSaramaConsumer(t)
	startSarama(t, capture, c.Bootstrap, sarama, topic, "0s")
	startSarama(t, capture, c.Bootstrap, saramaSlow, topic, "200ms")
	c.Settled(t, map[string]realkafka.Want{auto: {Members: 1}, slow: {Members: 1}, gone: {Members: 1}, sarama: {Members: 1}, saramaSlow: {Members: 1}})
	j.Close(t, "gone")
	c.Settled(t, map[string]realkafka.Want{gone: {Members: 0}})
	c.Commit(t, simple, map[string]map[int32]int64{topic: {0: 1}})
	// The window starts once the Streams app has committed: a verdict
	// needs ten observations of a consumer's commit rhythm, and the
	// window holds four of its commits.
	deadline := time.Now().Add(realkafka.Wait)
	for {
		os, err := c.Admin().FetchOffsets(context.Background(), streams)
		if o, ok := os.Lookup(topic, 0); err == nil && ok && o.At > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never committed", streams)
		}
		time.Sleep(500 * time.Millisecond)
	}

	hctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var hout, herr bytes.Buffer
	code := run(hctx, []string{"-b", c.Bootstrap, "health", auto, slow, streams, simple, gone, sarama, saramaSlow,
		"--window", "2m", "--interval", "4s", "-o", "json"}, strings.NewReader(""), &hout, &herr)
	jsonOut, errOut := hout.String(), herr.String()
	if code != 0 {
		t.Fatalf("health exited %d:\n%s%s", code, jsonOut, errOut)
	}
	var doc struct {
		Groups []realHealthGroup `json:"groups"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
		t.Fatalf("health -o json: %v\n%s", err, jsonOut)
	}
	committed, err := c.Admin().FetchOffsets(context.Background(), slow)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := committed.Lookup(topic, 0)
	if !ok || o.At < 0 {
		t.Fatalf("%s has no commit on %s/0", slow, topic)
	}
	truth := time.Since(c.RecordTime(t, topic, 0, o.At)).Seconds()

	want := map[string]string{auto: "OK", slow: "WARN", streams: "OK", simple: "JUDGING", gone: "ERR STOP", sarama: "OK", saramaSlow: "WARN"}
	// The silence is the window's span as the polls fell: about 2m. STOP
	// comes once the job's commit has stood three ceilings
	// (lag.UnseenRhythms), 15m: a window of 16m shows it.
	waits := regexp.MustCompile(`^no commit in [0-9ms]+ and no rhythm seen yet: STOP after 15m unless it commits; widen --window to 16m00s$`)
	for _, g := range doc.Groups {
		switch {
		case g.Group == simple && !waits.MatchString(g.Cause):
			t.Errorf("health gave %s the cause %q, want it to match %s", g.Group, g.Cause, waits)
		case g.Group == gone && g.Cause != "no members while watched":
			t.Errorf("health gave %s the cause %q, want \"no members while watched\"", g.Group, g.Cause)
		}
		for _, p := range g.Partitions {
			t.Logf("health: %s %q (cause %q): %s, lag %s, time lag %s", g.Group, g.Verdict, g.Cause, p.Status, show(p.Lag), show(p.TimeLagSeconds))
		}
		if g.Verdict != want[g.Group] {
			t.Errorf("health judged %s %q, want %s", g.Group, g.Verdict, want[g.Group])
		}
		if g.Group == slow && len(g.Partitions) == 1 && g.Partitions[0].TimeLagSeconds != nil {
			if tl := *g.Partitions[0].TimeLagSeconds; tl > truth+1 {
				t.Errorf("%s time lag %.1fs is above the truth, %.1fs (the record at its commit)", slow, tl, truth)
			}
		}
	}
	if len(doc.Groups) != len(want) {
		t.Errorf("health judged %d groups, want %d:\n%s", len(doc.Groups), len(want), jsonOut)
	}
}

// realHealthGroup is one group of `kgroups health -o json`, as the real
// tier's verdict tests read it.
type realHealthGroup struct {
	Group      string `json:"group"`
	Verdict    string `json:"verdict"`
	Cause      string `json:"cause"`
	Partitions []struct {
		Status          string   `json:"status"`
		TimeLagSeconds  *float64 `json:"timeLagSeconds"`
		Lag             *int64   `json:"lag"`
		CommittedOffset *int64   `json:"committedOffset"`
	} `json:"partitions"`
}

// show is *v, or "null".
func show[T any](v *T) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

// buildSaramaConsumer builds kafka/rebalance/testdata/capture, a module of
// its own (sarama is no dependency of kgroups), and returns the binary.
func buildSaramaConsumer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "capture")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(realkafka.Root(t), "kafka", "rebalance", "testdata", "capture")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the sarama consumer: %v\n%s", err, out)
	}
	return bin
}

// startSarama runs a sarama member of group on topic that marks every
// record after sleep and autocommits every second (sarama's default), from
// the oldest offset, until the test ends.
func startSarama(t *testing.T, bin, brokers, group, topic, sleep string) {
	t.Helper()
	cmd := exec.Command(bin, "-lib", "sarama", "-brokers", brokers, "-group", group, "-assignor", "range",
		"-topics", topic, "-commit", "1s", "-sleep", sleep)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the sarama member of %s: %v", group, err)
	}
	t.Cleanup(func() {
		if err := stopMember(cmd); err != nil {
			t.Logf("sarama member of %s ended: %v", group, err)
		}
		if t.Failed() {
			t.Logf("sarama member of %s:\n%s", group, logs.String())
		}
	})
}

// stopMember stops cmd, a consumer group member started by a test:
// SIGTERM, which each member takes as its cue to close (and so to leave
// its group), then a kill if it has not exited in 15 s. It returns how
// the process ended.
func stopMember(cmd *exec.Cmd) error {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		return <-done
	}
}
