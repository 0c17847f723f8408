//go:build realkafka

package realkafka

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// DefaultVersion is the release the tier runs unless a test asks for
// another; the tools and the Java clients always come from it.
const DefaultVersion = "4.2.1"

// Wait bounds every wait of the tier: generous, since a JVM on a loaded
// two-core machine is slow, and a wait only takes this long when something
// is broken.
const Wait = 90 * time.Second

// Cluster is a running Kafka cluster: one .ci/kafka started for the test
// (and stops when it ends), or the one KGROUPS_REAL_BOOTSTRAP names.
type Cluster struct {
	Bootstrap string // host:port,...
	Version   string // the brokers' release
	// Classpath is the jars folder of DefaultVersion: the tools and the
	// Java clients run from it, whatever the brokers' release.
	Classpath string
	// Suffix makes names unique on a cluster the tier did not start.
	Suffix string

	dir    string // .ci/kafka's state folder; "" for an external cluster
	script string
	logs   string // tool logging configuration
	adm    *kadm.Client
	cl     *kgo.Client
}

// Root is the module's root folder (where go.mod is).
func Root(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("realkafka: no caller")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// script runs .ci/kafka with env and returns its stdout as KEY=VALUE pairs.
func runScript(t testing.TB, script string, env []string, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf(".ci/kafka %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	kv := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			kv[k] = v
		}
	}
	return kv
}

// Start gives the test a cluster of version ("" for DefaultVersion) with
// nodes nodes. With version "" and KGROUPS_REAL_BOOTSTRAP set, it is that
// cluster (KGROUPS_KAFKA_CLASSPATH, or .ci/kafka fetch, gives the jars);
// otherwise .ci/kafka starts one in a folder of its own and stops it when
// the test ends.
func Start(t testing.TB, version string, nodes int) *Cluster {
	t.Helper()
	root := Root(t)
	c := &Cluster{script: filepath.Join(root, ".ci", "kafka")}
	if cp := os.Getenv("KGROUPS_KAFKA_CLASSPATH"); cp != "" {
		c.Classpath = cp
	} else {
		c.Classpath = runScript(t, c.script, nil, "fetch", DefaultVersion)["KAFKA_CLASSPATH"]
	}
	if b := os.Getenv("KGROUPS_REAL_BOOTSTRAP"); b != "" && version == "" && nodes == 1 {
		c.Bootstrap = b
		c.Version = os.Getenv("KGROUPS_REAL_VERSION")
		if c.Version == "" {
			c.Version = DefaultVersion
		}
		var r [3]byte
		_, _ = rand.Read(r[:])
		c.Suffix = "-" + hex.EncodeToString(r[:])
	} else {
		if version == "" {
			version = DefaultVersion
		}
		dir, err := os.MkdirTemp("", "kgroups-realkafka-")
		if err != nil {
			t.Fatal(err)
		}
		c.dir = dir
		t.Cleanup(func() {
			// Logs stay for a failed test; the data goes.
			if t.Failed() {
				keep := dir + "-logs"
				_ = os.Rename(filepath.Join(dir, "logs"), keep)
				t.Logf("realkafka: broker logs kept in %s", keep)
			}
			cmd := exec.Command("bash", c.script, "down")
			cmd.Env = append(os.Environ(), "KGROUPS_KAFKA_DIR="+dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf(".ci/kafka down: %v\n%s", err, out)
			}
			_ = os.RemoveAll(dir)
		})
		kv := runScript(t, c.script, []string{"KGROUPS_KAFKA_DIR=" + dir},
			"up", version, "--nodes", fmt.Sprint(nodes))
		c.Bootstrap, c.Version = kv["BOOTSTRAP"], kv["KAFKA_VERSION"]
		if c.Bootstrap == "" {
			t.Fatalf(".ci/kafka up printed no BOOTSTRAP: %v", kv)
		}
	}
	c.logs = filepath.Join(t.TempDir(), "tools-log4j2.properties")
	if err := os.WriteFile(c.logs, []byte(toolsLog4j2), 0o600); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(c.Bootstrap, ",")...),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.MetadataMinAge(250*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	c.cl, c.adm = cl, kadm.NewClient(cl)
	return c
}

const toolsLog4j2 = `status = warn
appender.err.type = Console
appender.err.name = STDERR
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = STDERR
`

// Name is name made unique on a cluster the tier did not start.
func (c *Cluster) Name(name string) string { return name + c.Suffix }

// Client is the kgo client under Admin, closed when the test ends.
func (c *Cluster) Client() *kgo.Client { return c.cl }

// Admin is a kadm client on the cluster, closed when the test ends.
func (c *Cluster) Admin() *kadm.Client { return c.adm }

// Brokers are the bootstrap addresses.
func (c *Cluster) Brokers() []string { return strings.Split(c.Bootstrap, ",") }

// StopNode stops node n (1-based) of a cluster the tier started.
func (c *Cluster) StopNode(t testing.TB, n int) {
	t.Helper()
	runScript(t, c.script, []string{"KGROUPS_KAFKA_DIR=" + c.dir}, "stop-node", fmt.Sprint(n))
}

// StartNode starts node n again and waits until it serves.
func (c *Cluster) StartNode(t testing.TB, n int) {
	t.Helper()
	runScript(t, c.script, []string{"KGROUPS_KAFKA_DIR=" + c.dir}, "start-node", fmt.Sprint(n))
}

// Tool runs a Kafka tool class (for example ConsumerGroupCommand) of
// DefaultVersion against the cluster and returns its stdout, its stderr
// and its exit code; it fails the test when the JVM cannot run at all.
func (c *Cluster) Tool(t testing.TB, class string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	jargs := append([]string{"-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-Dlog4j2.configurationFile=" + c.logs, "-cp", filepath.Join(c.Classpath, "*"), class}, args...)
	return runTool(t, exec.CommandContext(ctx, "java", jargs...), "java "+class)
}

// runTool runs cmd and returns its stdout, its stderr and its exit code;
// it fails the test, naming what, when the command cannot run at all.
func runTool(t testing.TB, cmd *exec.Cmd, what string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("%s: %v\n%s", what, err, errb.String())
	}
	return out.String(), errb.String(), code
}

// ConsumerGroupCommand is the class kafka-consumer-groups.sh runs.
const ConsumerGroupCommand = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"

// ReleaseConsumerGroups names kafka-consumer-groups.sh to ReleaseTool:
// .ci/kafka tool runs the class of the release's own script
// (kafka.admin.ConsumerGroupCommand up to 3.7).
const ReleaseConsumerGroups = "kafka-consumer-groups"

// ReleaseTool runs a Kafka tool class of the brokers' own release (class
// ReleaseConsumerGroups for that release's kafka-consumer-groups.sh), as a
// user of an old cluster runs the tools that came with it, through
// .ci/kafka tool; like Tool it returns stdout, stderr and the exit code.
func (c *Cluster) ReleaseTool(t testing.TB, class string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{c.script, "tool", class}, args...)...)
	cmd.Env = append(os.Environ(), "KAFKA_VERSION="+c.Version)
	return runTool(t, cmd, ".ci/kafka tool "+class+" (Kafka "+c.Version+")")
}

// ReleaseGroups is Groups with the brokers' own release of
// kafka-consumer-groups.sh.
func (c *Cluster) ReleaseGroups(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, code := c.ReleaseTool(t, ReleaseConsumerGroups, append([]string{"--bootstrap-server", c.Bootstrap}, args...)...)
	if code != 0 {
		t.Fatalf("kafka-consumer-groups.sh %s (Kafka %s): exit %d\n%s%s", strings.Join(args, " "), c.Version, code, out, errOut)
	}
	return out
}

// Groups runs kafka-consumer-groups.sh with args (--bootstrap-server is
// added) and fails the test unless it exits 0.
func (c *Cluster) Groups(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, code := c.Tool(t, ConsumerGroupCommand, append([]string{"--bootstrap-server", c.Bootstrap}, args...)...)
	if code != 0 {
		t.Fatalf("kafka-consumer-groups.sh %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// CreateTopic creates topic with partitions partitions (replication
// factor: every node, at most 3) and no time retention: the tests write
// records with timestamps in the past, which the broker's retention check
// (its first runs 30 s after the start) would otherwise delete, moving the
// log start to the log end under a running test.
func (c *Cluster) CreateTopic(t testing.TB, topic string, partitions int32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	rf := int16(min(len(c.Brokers()), 3))
	forever := "-1"
	resp, err := c.adm.CreateTopic(ctx, partitions, rf, map[string]*string{"retention.ms": &forever}, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatalf("create topic %s: %v", topic, err)
	}
	// Wait until every partition has a leader.
	for {
		md, err := c.adm.Metadata(ctx, topic)
		if err == nil {
			td := md.Topics[topic]
			ok := td.Err == nil && len(td.Partitions) == int(partitions)
			for _, p := range td.Partitions {
				ok = ok && p.Leader >= 0 && p.Err == nil
			}
			if ok {
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("topic %s has no leaders: %v", topic, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Produce writes n records to topic's partition, with keys k0, k1, ... and
// the given record timestamp (zero: now).
func (c *Cluster) Produce(t testing.TB, topic string, partition int32, n int, ts time.Time) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: partition,
			Key: fmt.Appendf(nil, "k%d", i), Value: fmt.Appendf(nil, "v%d", i), Timestamp: ts}
	}
	if err := c.cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("produce %s/%d: %v", topic, partition, err)
	}
}

// ProduceAsync writes one record (timestamped now) to topic's partition
// without waiting: for a steady load while brokers come and go, whose
// failures the producer retries and the test does not judge.
func (c *Cluster) ProduceAsync(topic string, partition int32) {
	c.cl.Produce(context.Background(), &kgo.Record{Topic: topic, Partition: partition, Value: []byte("v")}, nil)
}

// ProduceSteadily calls write with a count from 0 every interval, on a
// goroutine of its own, until the test ends: a steady producer, whose
// write calls ProduceAsync for the partitions it feeds.
func (c *Cluster) ProduceSteadily(t testing.TB, every time.Duration, write func(n int)) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for n := 0; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				write(n)
			}
		}
	}()
	t.Cleanup(func() { stop(); wg.Wait() })
}

// RecordTime is the timestamp of the record at offset of topic's
// partition, read without joining a group.
func (c *Cluster) RecordTime(t testing.TB, topic string, partition int32, offset int64) time.Time {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {partition: kgo.NewOffset().At(offset)}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	for {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("no record at %s/%d@%d: %v", topic, partition, offset, err)
		}
		var found *kgo.Record
		fs.EachRecord(func(r *kgo.Record) {
			if found == nil && r.Offset == offset {
				found = r
			}
		})
		if found != nil {
			return found.Timestamp
		}
	}
}

// Commit commits offsets for group from outside it (the group must be
// Empty or unknown), as an admin would: offsets maps topic to partition
// to offset.
func (c *Cluster) Commit(t testing.TB, group string, offsets map[string]map[int32]int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	var os kadm.Offsets
	for topic, ps := range offsets {
		for p, o := range ps {
			os.Add(kadm.Offset{Topic: topic, Partition: p, At: o, LeaderEpoch: -1})
		}
	}
	resp, err := c.adm.CommitOffsets(ctx, group, os)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("commit %s: %v", group, err)
	}
}

// Clients is one JVM running Kafka's Java clients (testdata/Clients.java),
// driven over its stdin; it is killed when the test ends.
type Clients struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	lines []string
	// seen counts the lines an earlier waitLine consumed: the next one
	// looks only past them.
	seen   int
	notify chan struct{}
	done   chan struct{}
}

// StartClients starts the JVM with the default release's client jars.
func (c *Cluster) StartClients(t testing.TB) *Clients {
	t.Helper()
	src := filepath.Join(Root(t), "kafka", "realkafka", "testdata", "Clients.java")
	cmd := exec.Command("java", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-Dlog4j2.configurationFile="+c.logs, "-cp", filepath.Join(c.Classpath, "*"), src, c.Bootstrap)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errFile, err := os.Create(filepath.Join(t.TempDir(), "clients.err"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = errFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("java Clients.java: %v", err)
	}
	j := &Clients{cmd: cmd, stdin: stdin, notify: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(j.done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			j.mu.Lock()
			j.lines = append(j.lines, sc.Text())
			j.mu.Unlock()
			select {
			case j.notify <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-j.done
		_ = cmd.Wait()
		_ = errFile.Close()
		if t.Failed() {
			b, _ := os.ReadFile(errFile.Name())
			t.Logf("Clients.java stderr:\n%s", lastLines(string(b), 40))
			t.Logf("Clients.java stdout:\n%s", strings.Join(j.Lines(), "\n"))
		}
	})
	j.waitLine(t, func(l string) bool { return l == "ready" }, "ready")
	return j
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// Lines is everything the JVM printed so far.
func (j *Clients) Lines() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.lines...)
}

// waitLine waits for a line, from the first one not yet seen by an earlier
// wait, that match accepts; a "failed" or "error" line fails the test.
func (j *Clients) waitLine(t testing.TB, match func(string) bool, what string) string {
	t.Helper()
	deadline := time.After(Wait)
	j.mu.Lock()
	seen := j.seen
	j.mu.Unlock()
	for {
		ls := j.Lines()
		for ; seen < len(ls); seen++ {
			l := ls[seen]
			if match(l) {
				j.mu.Lock()
				j.seen = seen + 1
				j.mu.Unlock()
				return l
			}
			if strings.HasPrefix(l, "error ") || strings.HasPrefix(l, "failed ") {
				t.Fatalf("Clients.java: %s (waiting for %s)", l, what)
			}
		}
		select {
		case <-j.notify:
		case <-j.done:
			t.Fatalf("Clients.java exited waiting for %s:\n%s", what, strings.Join(j.Lines(), "\n"))
		case <-deadline:
			t.Fatalf("Clients.java: no %s in %s:\n%s", what, Wait, strings.Join(j.Lines(), "\n"))
		}
	}
}

func (j *Clients) send(t testing.TB, name string, words ...string) {
	t.Helper()
	if _, err := fmt.Fprintln(j.stdin, strings.Join(words, " ")); err != nil {
		t.Fatalf("Clients.java: %v", err)
	}
	j.waitLine(t, func(l string) bool { return l == "ok "+name }, "ok "+name)
}

// Consumer starts a KafkaConsumer named name (a handle for Close, not its
// client id) subscribed to topics, with props (group.id and the rest).
func (j *Clients) Consumer(t testing.TB, name string, topics []string, props ...string) {
	t.Helper()
	j.send(t, name, append([]string{"consumer", name, strings.Join(topics, ",")}, props...)...)
}

// Share starts a KafkaShareConsumer.
func (j *Clients) Share(t testing.TB, name string, topics []string, props ...string) {
	t.Helper()
	j.send(t, name, append([]string{"share", name, strings.Join(topics, ",")}, props...)...)
}

// Streams starts a Kafka Streams app counting in's records by key into out.
func (j *Clients) Streams(t testing.TB, name, in, out string, props ...string) {
	t.Helper()
	j.send(t, name, append([]string{"streams", name, in, out}, props...)...)
}

// Close closes the client named name and waits until it has.
func (j *Clients) Close(t testing.TB, name string) {
	t.Helper()
	j.send(t, name, "close", name)
}
