//go:build realkafka

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// kafkajsVersion is the kafkajs release the test runs; .ci/run and `make
// test-kafka` install the same with npm.
const kafkajsVersion = "2.2.4"

// TestRealVerdictsOtherLibraries judges consumers of client libraries the
// verdict rules were not written on, each on its library's default commit
// behaviour, as TestRealVerdicts judges Java's and sarama's: one steady
// producer writes ten records a second to one partition, and for every
// library one member that keeps up must be OK, and one that takes 200 ms
// over each record (five a second, half the producer's rate) falls behind
// and must be WARN, with a time lag never above the truth (the age of the
// record at its commit, read after health returned). No group's time lag
// may be above the age of the record at the commit health saw last.
//
// The libraries and their default commits:
//   - kafka-python (Debian's python3-kafka) autocommits every 5 s, inside
//     poll, the positions of the records earlier polls returned;
//   - confluent-kafka-python (Debian's python3-confluent-kafka, librdkafka)
//     stores a record's offset when poll returns it and commits the stored
//     offsets every 5 s from a background thread;
//   - kafka-go's Reader commits synchronously on every CommitMessages
//     (CommitInterval 0): here once per record processed, ten commits a
//     second for the member that keeps up;
//   - kcat (librdkafka) in balanced-consumer mode autocommits every 5 s the
//     offsets of the records it printed; its slow member is slow because
//     the program reading its output is (a 4 kB line per record, read one
//     every 200 ms, so the pipe fills and kcat waits on it);
//   - kafkajs commits once each batch (a fetch's records of a partition)
//     has been processed by eachMessage (autoCommit with neither
//     autoCommitInterval nor autoCommitThreshold): ten commits a second
//     for the member that keeps up, while the slow member's batches, each
//     holding what arrived while it processed the one before, double, and
//     so do the gaps between its commits (8 s, 16 s, 32 s, ... seen).
//
// All ten members run at once, on one cluster, judged by one health call.
// A missing library fails the test, saying how to install it; it is never
// skipped.
func TestRealVerdictsOtherLibraries(t *testing.T) {
	libs := otherLibraries(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	topic := c.Name("libs")
	c.CreateTopic(t, topic, 1)
	// The producer writes uncompressed batches, as Java's producer does by
	// default. franz-go's default compresses a batch with snappy, and on
	// a loaded machine batches hold several records, which kafkajs cannot
	// read without a codec of its own (its consumers crash: "Snappy
	// compression not implemented") nor kafka-python without python-snappy:
	// the test is about commits, not codecs.
	producer, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerBatchCompression(kgo.NoCompression()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(producer.Close)
	c.ProduceSteadily(t, 100*time.Millisecond, func(int) {
		producer.Produce(context.Background(), &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v")}, nil)
	})

	var groups, slows []string
	want := map[string]string{}
	settled := map[string]realkafka.Want{}
	for _, l := range libs {
		t.Logf("%s: %s", l.name, l.version)
		for _, slow := range []bool{false, true} {
			g := c.Name("l-" + l.name)
			if slow {
				g += "-slow"
			}
			sleep := time.Duration(0)
			want[g] = "OK"
			if slow {
				sleep = 200 * time.Millisecond
				want[g] = "WARN"
				slows = append(slows, g)
			}
			l.start(t, c.Bootstrap, g, topic, sleep)
			groups = append(groups, g)
			settled[g] = realkafka.Want{Members: 1}
		}
	}
	c.Settled(t, settled)
	// The window starts once every member has committed: a verdict needs
	// ten observations of a consumer's commit rhythm, and the 5 s
	// autocommits take a while to show theirs.
	deadline := time.Now().Add(realkafka.Wait)
	for waiting := slices.Clone(groups); len(waiting) > 0; {
		fetched := c.Admin().FetchManyOffsets(context.Background(), waiting...)
		waiting = slices.DeleteFunc(waiting, func(g string) bool {
			o, ok := fetched[g].Fetched.Lookup(topic, 0)
			return fetched[g].Err == nil && ok && o.At > 0
		})
		if len(waiting) > 0 && time.Now().After(deadline) {
			t.Fatalf("no commit in %s from %s", realkafka.Wait, strings.Join(waiting, ", "))
		}
		time.Sleep(500 * time.Millisecond)
	}

	// The window and interval of TestRealVerdicts: the 5 s autocommits
	// show two dozen commits in it, the per-record commits hundreds, and
	// kafkajs's slow member at least three.
	commits := watchCommits(c, topic, groups)
	hctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var hout, herr bytes.Buffer
	code := run(hctx, append([]string{"-b", c.Bootstrap, "health"}, append(groups,
		"--window", "2m", "--interval", "4s", "-o", "json")...), strings.NewReader(""), &hout, &herr)
	returned := time.Now()
	// The slow groups' commits are read at once, in one request: a commit
	// that lands between health's last poll and this read moves the
	// truth back by the records it covers (25 for a 5 s autocommit at
	// five records a second, 2.5 s of the producer's), so the read comes
	// as close to that poll as it can.
	after := c.Admin().FetchManyOffsets(context.Background(), slows...)
	timelines := commits()
	jsonOut, errOut := hout.String(), herr.String()
	if code != 0 {
		t.Fatalf("health exited %d:\n%s%s", code, jsonOut, errOut)
	}
	var doc struct {
		Groups []json.RawMessage `json:"groups"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
		t.Fatalf("health -o json: %v\n%s", err, jsonOut)
	}
	truth := map[string]float64{}
	for _, g := range slows {
		if err := after[g].Err; err != nil {
			t.Fatalf("%s's commits: %v", g, err)
		}
		o, ok := after[g].Fetched.Lookup(topic, 0)
		if !ok || o.At < 0 {
			t.Fatalf("%s has no commit on %s/0", g, topic)
		}
		truth[g] = time.Since(c.RecordTime(t, topic, 0, o.At)).Seconds()
	}

	judged := map[string]bool{}
	for _, raw := range doc.Groups {
		var g realHealthGroup
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Fatalf("health -o json: %v\n%s", err, raw)
		}
		judged[g.Group] = true
		for _, p := range g.Partitions {
			t.Logf("health: %s %q (cause %q): %s, lag %s, time lag %s", g.Group, g.Verdict, g.Cause, p.Status, show(p.Lag), show(p.TimeLagSeconds))
		}
		t.Logf("commits of %s: %s", g.Group, timelines[g.Group])
		if tl := timelines[g.Group]; len(tl.at) <= 60 {
			t.Logf("commits of %s (time@offset):%s", g.Group, tl.detail())
		}
		if g.Verdict != want[g.Group] {
			t.Errorf("health judged %s %q, want %s; its commits: %s\n%s", g.Group, g.Verdict, want[g.Group], timelines[g.Group].detail(), raw)
		}
		// Every group's time lag, at health's last poll, is at most the
		// age, when health returned, of the record at the commit that
		// poll saw (when it saw a lag: at the log end there is no record
		// yet, and the time lag is 0).
		if len(g.Partitions) == 1 {
			p := g.Partitions[0]
			if p.TimeLagSeconds != nil && p.CommittedOffset != nil && p.Lag != nil && *p.Lag > 0 {
				age := returned.Sub(c.RecordTime(t, topic, 0, *p.CommittedOffset)).Seconds()
				if *p.TimeLagSeconds > age+1 {
					t.Errorf("%s time lag %.1fs is above the age of the record at the commit health saw (%d), %.1fs", g.Group, *p.TimeLagSeconds, *p.CommittedOffset, age)
				}
			}
		}
		if tr, slow := truth[g.Group]; slow {
			if len(g.Partitions) != 1 || g.Partitions[0].TimeLagSeconds == nil {
				t.Errorf("health gave %s no time lag:\n%s", g.Group, raw)
			} else if tl := *g.Partitions[0].TimeLagSeconds; tl > tr+1 {
				t.Errorf("%s time lag %.1fs is above the truth, %.1fs (the record at its commit)", g.Group, tl, tr)
			} else {
				t.Logf("%s time lag %.1fs, truth %.1fs", g.Group, tl, tr)
			}
		}
	}
	for _, g := range groups {
		if !judged[g] {
			t.Errorf("health did not judge %s:\n%s", g, jsonOut)
		}
	}
	if len(doc.Groups) != len(groups) {
		t.Errorf("health judged %d groups, want %d:\n%s", len(doc.Groups), len(groups), jsonOut)
	}
}

// library is one client library the test runs: start runs a member of
// group on topic that takes sleep over each record, until the test ends.
type library struct {
	name, version string
	start         func(t *testing.T, brokers, group, topic string, sleep time.Duration)
}

// otherLibraries checks that every library is installed, failing the test
// with how to install the one that is not, and returns them.
func otherLibraries(t *testing.T) []library {
	t.Helper()
	root := realkafka.Root(t)
	testdata := filepath.Join(root, "kafka", "realkafka", "testdata")
	const python = "/usr/bin/python3"
	pyconsumer := filepath.Join(testdata, "pyconsumer.py")
	pyVersion := func(lib, pkg string) string {
		out, err := exec.Command(python, pyconsumer, "--lib", lib, "--versions").CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %s %s --versions: %v\n%s\n"+
				"install Debian's %s: apt-get install %s (.ci/run and make test-kafka do)", lib, python, pyconsumer, err, out, pkg, pkg)
		}
		return strings.TrimSpace(string(out))
	}
	pyStart := func(lib string) func(t *testing.T, brokers, group, topic string, sleep time.Duration) {
		return func(t *testing.T, brokers, group, topic string, sleep time.Duration) {
			t.Helper()
			args := []string{pyconsumer, "--lib", lib, "--brokers", brokers, "--group", group, "--sleep", fmt.Sprint(sleep.Seconds())}
			if sleep > 0 {
				// A slow member holds two records at a time, as the slow
				// Java consumer of TestRealVerdicts does (max.poll.records=2):
				// kafka-python's default of 500 would have it process a
				// backlog for minutes between two polls, and so between two
				// commits.
				args = append(args, "--max-records", "2")
			}
			startMember(t, lib+" member of "+group, exec.Command(python, append(args, topic)...))
		}
	}

	capture := buildSaramaConsumer(t)
	kafkaGoVersion := func() string {
		cmd := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "github.com/segmentio/kafka-go")
		cmd.Dir = filepath.Join(root, "kafka", "rebalance", "testdata", "capture")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kafka-go's version: %v\n%s", err, out)
		}
		return "kafka-go " + strings.TrimSpace(string(out))
	}

	kcat, err := exec.LookPath("kcat")
	if err != nil {
		t.Fatalf("kcat: %v: install Debian's kcat: apt-get install kcat (.ci/run and make test-kafka do)", err)
	}
	out, err := exec.Command(kcat, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("kcat -V: %v\n%s", err, out)
	}
	kcatVersion := strings.TrimSpace(string(out))
	if _, v, ok := strings.Cut(kcatVersion, "Version "); ok {
		v, _, _ = strings.Cut(v, " builtin.features")
		kcatVersion = "kcat " + v
	}

	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("kafkajs: %v: install Node.js 20 (Debian's nodejs) and npm", err)
	}
	modules := filepath.Join(kafkaCache(t), "node", "node_modules")
	jsconsumer := filepath.Join(testdata, "jsconsumer.js")
	jsEnv := append(os.Environ(), "NODE_PATH="+modules)
	cmd := exec.Command(node, jsconsumer, "--version")
	cmd.Env = jsEnv
	out, err = cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != kafkajsVersion {
		t.Fatalf("kafkajs %s in %s: %v\n%s\ninstall it: npm install --prefix %s kafkajs@%s (.ci/run and make test-kafka do)",
			kafkajsVersion, modules, err, out, filepath.Dir(modules), kafkajsVersion)
	}

	return []library{
		{name: "kafka-python", version: pyVersion("kafka-python", "python3-kafka"), start: pyStart("kafka-python")},
		{name: "confluent-kafka-python", version: pyVersion("confluent", "python3-confluent-kafka"), start: pyStart("confluent")},
		{name: "kafka-go", version: kafkaGoVersion(), start: func(t *testing.T, brokers, group, topic string, sleep time.Duration) {
			t.Helper()
			startMember(t, "kafka-go member of "+group, exec.Command(capture, "-lib", "kafka-go", "-reader",
				"-brokers", brokers, "-group", group, "-topics", topic, "-sleep", sleep.String()))
		}},
		{name: "kcat", version: kcatVersion, start: func(t *testing.T, brokers, group, topic string, sleep time.Duration) {
			t.Helper()
			startKcat(t, kcat, brokers, group, topic, sleep)
		}},
		{name: "kafkajs", version: "kafkajs " + kafkajsVersion, start: func(t *testing.T, brokers, group, topic string, sleep time.Duration) {
			t.Helper()
			cmd := exec.Command(node, jsconsumer, brokers, group, topic, fmt.Sprint(sleep.Milliseconds()))
			cmd.Env = jsEnv
			startMember(t, "kafkajs member of "+group, cmd)
		}},
	}
}

// kafkaCache is .ci/kafka's cache folder, where `make test-kafka` and
// .ci/run install kafkajs (under node/).
func kafkaCache(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("KGROUPS_KAFKA_CACHE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "kgroups-kafka")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(home, ".cache", "kgroups-kafka")
}

// startMember starts cmd, a consumer group member, and stops it when the
// test ends (stopMember). Its
// output is logged when the test failed, its last line otherwise; a
// cmd.Stdout set by the caller is kept.
func startMember(t *testing.T, what string, cmd *exec.Cmd) {
	t.Helper()
	var logs demoOutput
	if cmd.Stdout == nil {
		cmd.Stdout = &logs
	}
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the %s: %v", what, err)
	}
	t.Cleanup(func() {
		if err := stopMember(cmd); err != nil {
			t.Logf("the %s ended: %v", what, err)
		}
		out := strings.TrimSpace(logs.String())
		if t.Failed() {
			t.Logf("the %s:\n%s", what, out)
		} else if out != "" {
			// Its last words: the members print what they consumed (and
			// kafkajs how often it committed) as they close.
			t.Logf("the %s: %s", what, out[strings.LastIndexByte(out, '\n')+1:])
		}
	})
}

// startKcat runs `kcat -G group topic`, a librdkafka balanced consumer on
// its defaults but where a group without commits starts (the oldest
// record), printing a 4 kB line per record into a pipe that the test reads
// a line per sleep. With sleep 200 ms the pipe (64 kB) and kcat's output
// buffer fill, and kcat, blocked on its writes, polls for records at the
// rate they are read: a consumer slower than the producer, whose commits
// are of the records it printed.
func startKcat(t *testing.T, kcat, brokers, group, topic string, sleep time.Duration) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(kcat, "-b", brokers, "-G", group, "-X", "auto.offset.reset=earliest",
		"-f", strings.Repeat("x", 4096)+" %o\n", topic)
	cmd.Stdout = w
	// Cleanups run last first: when the test ends, the reader drains the
	// pipe at once, so that kcat, no longer blocked on a write, takes its
	// SIGTERM (startMember's cleanup) and closes, and then the reader,
	// at the end of kcat's output, is done.
	read := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-read:
		case <-time.After(20 * time.Second):
			t.Logf("the kcat member of %s: its output not closed", group)
		}
	})
	startMember(t, "kcat member of "+group, cmd)
	_ = w.Close()
	drain := make(chan struct{})
	t.Cleanup(func() { close(drain) })
	go func() {
		defer close(read)
		defer func() { _ = r.Close() }()
		br := bufio.NewReaderSize(r, 8192)
		for {
			if _, err := br.ReadSlice('\n'); err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return // io.EOF: kcat exited
			}
			select {
			case <-drain:
			case <-time.After(sleep):
			}
		}
	}()
}

// timeline is what a poll of a group's committed offset every
// watchEvery saw change: each change's time (from the first poll) and the
// offset committed.
type timeline struct {
	at      []time.Duration
	offsets []int64
}

const watchEvery = 250 * time.Millisecond

// String sums the timeline up: how many changes, and the gaps between
// them.
func (tl timeline) String() string {
	if len(tl.at) < 2 {
		return fmt.Sprintf("%d changes seen (polled every %s)", len(tl.at), watchEvery)
	}
	var gaps []time.Duration
	for i := 1; i < len(tl.at); i++ {
		gaps = append(gaps, tl.at[i]-tl.at[i-1])
	}
	slices.Sort(gaps)
	return fmt.Sprintf("%d changes seen in %s (polled every %s), offsets %d to %d; gaps: min %s, median %s, max %s",
		len(tl.at), (tl.at[len(tl.at)-1] - tl.at[0]).Round(time.Second), watchEvery, tl.offsets[0], tl.offsets[len(tl.offsets)-1],
		gaps[0].Round(10*time.Millisecond), gaps[len(gaps)/2].Round(10*time.Millisecond), gaps[len(gaps)-1].Round(10*time.Millisecond))
}

// detail is every change, for a failure's evidence.
func (tl timeline) detail() string {
	var b strings.Builder
	for i := range tl.at {
		fmt.Fprintf(&b, " %.1fs@%d", tl.at[i].Seconds(), tl.offsets[i])
	}
	return b.String()
}

// watchCommits polls the groups' commits on topic's partition 0 every
// watchEvery until the returned function is called, which gives each
// group's timeline: evidence of each library's commit rhythm as the broker
// saw it.
func watchCommits(c *realkafka.Cluster, topic string, groups []string) func() map[string]timeline {
	ctx, stop := context.WithCancel(context.Background())
	out := make(chan map[string]timeline, 1)
	go func() {
		tls := map[string]timeline{}
		start := time.Now()
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			fetched := c.Admin().FetchManyOffsets(ctx, groups...)
			for _, g := range groups {
				o, ok := fetched[g].Fetched.Lookup(topic, 0)
				if fetched[g].Err != nil || !ok {
					continue
				}
				tl := tls[g]
				if n := len(tl.offsets); n == 0 || tl.offsets[n-1] != o.At {
					tl.at = append(tl.at, time.Since(start))
					tl.offsets = append(tl.offsets, o.At)
					tls[g] = tl
				}
			}
			select {
			case <-ctx.Done():
				out <- tls
				return
			case <-tick.C:
			}
		}
	}()
	return func() map[string]timeline {
		stop()
		return <-out
	}
}
