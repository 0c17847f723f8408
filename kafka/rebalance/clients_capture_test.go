//go:build capture

package rebalance

// The sarama, kafka-go, kafka-python, confluent-kafka-python and mixed
// fixtures in testdata/<library> are recorded by this test from real
// consumers against the in-process kfake cluster:
//
//	go test -tags capture -run TestCaptureClients -count=1 -timeout 60m ./kafka/rebalance
//
// (-run TestCaptureClients/sarama and so on records one library). sarama
// and kafka-go members are testdata/capture's program, built here from its
// own module; kafka-python and confluent-kafka-python members are
// testdata/capture/consumer.py, run with Debian's /usr/bin/python3 and its
// python3-kafka and python3-confluent-kafka packages. It never runs without
// the capture build tag.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// captureCounts are the topics every captured group subscribes to: 12
// partitions put t12-10 before t12-2 in text order, 5 and 7 leave
// remainders for two and three members.
var captureCounts = map[string]int32{"t12": 12, "t5": 5, "t7": 7}

const captureTotal = 24

// captureLib is one library's way of starting a member.
type captureLib struct {
	dir       string   // testdata/<dir>
	assignors []string // the protocols it offers
	static    bool     // it supports group.instance.id
	// others are the variants that give every member another library's
	// default client id: "javaid" the Java client's consumer-<group>-N,
	// "saramaid" sarama's "sarama".
	others   []string
	versions func(t *testing.T) map[string]string
	// command is the member process: client id and instance id empty mean
	// the library's defaults.
	command func(brokers, group, assignor, clientID, instanceID, leaderLog string) *exec.Cmd
}

func TestCaptureClients(t *testing.T) {
	goBin := buildCaptureProgram(t)
	py := "/usr/bin/python3"
	script, err := filepath.Abs(filepath.Join("testdata", "capture", "consumer.py"))
	if err != nil {
		t.Fatal(err)
	}
	topics := "t12,t5,t7"
	goMember := func(lib string) func(brokers, group, assignor, clientID, instanceID, leaderLog string) *exec.Cmd {
		return func(brokers, group, assignor, clientID, instanceID, leaderLog string) *exec.Cmd {
			return exec.Command(goBin, "-lib", lib, "-brokers", brokers, "-group", group, "-assignor", assignor,
				"-client-id", clientID, "-instance-id", instanceID, "-topics", topics, "-leader-log", leaderLog)
		}
	}
	pyMember := func(lib string) func(brokers, group, assignor, clientID, instanceID, leaderLog string) *exec.Cmd {
		return func(brokers, group, assignor, clientID, instanceID, leaderLog string) *exec.Cmd {
			return exec.Command(py, script, "--lib", lib, "--brokers", brokers, "--group", group, "--assignor", assignor,
				"--client-id", clientID, "--instance-id", instanceID, "--leader-log", leaderLog, "t12", "t5", "t7")
		}
	}
	pyVersions := func(lib string) func(t *testing.T) map[string]string {
		return func(t *testing.T) map[string]string {
			t.Helper()
			out, err := exec.Command(py, script, "--lib", lib, "--versions").Output()
			if err != nil {
				t.Fatalf("%s versions: %v", lib, err)
			}
			v := map[string]string{}
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	libs := map[string]captureLib{
		"sarama": {dir: "sarama", assignors: []string{"range", "roundrobin", "sticky"}, static: true,
			versions: goModuleVersion("github.com/IBM/sarama", "sarama"), command: goMember("sarama"),
			others: []string{"javaid"}},
		"kafka-go": {dir: "kafka-go", assignors: []string{"range", "roundrobin"},
			versions: goModuleVersion("github.com/segmentio/kafka-go", "kafka-go"), command: goMember("kafka-go"),
			others: []string{"javaid", "saramaid"}},
		// kafka-python 2.0.2's sticky assignor fails on Python 3 at the
		// first rejoin (TypeError encoding its user data): not captured.
		"kafka-python": {dir: "kafka-python", assignors: []string{"range", "roundrobin"},
			versions: pyVersions("kafka-python"), command: pyMember("kafka-python")},
		"confluent-kafka-python": {dir: "confluent-kafka-python", assignors: []string{"range", "roundrobin", "cooperative-sticky"}, static: true,
			versions: pyVersions("confluent"), command: pyMember("confluent")},
	}

	c := kafkatest.NewCluster(t)
	for topic, n := range captureCounts {
		c.CreateTopic(t, topic, n)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	brokers := strings.Join(c.Addrs, ",")

	for _, name := range []string{"sarama", "kafka-go", "kafka-python", "confluent-kafka-python"} {
		lib := libs[name]
		t.Run(name, func(t *testing.T) {
			versions := lib.versions(t)
			variants := []string{"default", "billing"}
			if lib.static {
				variants = append(variants, "static")
			}
			variants = append(variants, lib.others...)
			for _, assignor := range lib.assignors {
				for _, variant := range variants {
					t.Run(assignor+"-"+variant, func(t *testing.T) {
						group := fmt.Sprintf("%s-%s-%s", name, assignor, variant)
						start := func(n int, leaderLog string) *exec.Cmd {
							var clientID, instanceID string
							switch variant {
							case "billing":
								clientID = fmt.Sprintf("consumer-billing-%d", n)
							case "static":
								instanceID = fmt.Sprintf("%s-%d", assignor, n)
							case "javaid":
								clientID = fmt.Sprintf("consumer-%s-%d", group, n)
							case "saramaid":
								clientID = "sarama"
							}
							return startMember(t, lib.command(brokers, group, assignor, clientID, instanceID, leaderLog))
						}
						f := clientFixture{Library: name, Versions: versions, Protocol: assignor, Static: variant == "static",
							Partitions: captureCounts, Group: group, ClientIDs: "default"}
						switch variant {
						case "billing":
							f.ClientIDs = "consumer-billing-N"
						case "javaid":
							f.ClientIDs = "consumer-<group>-N"
						case "saramaid":
							f.ClientIDs = "sarama"
						}
						captureScenario(t, c, cl, lib.dir, assignor+"-"+variant, f, []func(string) *exec.Cmd{
							func(l string) *exec.Cmd { return start(1, l) },
							func(l string) *exec.Cmd { return start(2, l) },
							func(l string) *exec.Cmd { return start(3, l) },
						})
					})
				}
			}
		})
	}

	// A mixed group: one kafka-python member, started first so that it
	// leads, and two confluent-kafka-python (librdkafka) members, all
	// with range, the protocol both offer.
	t.Run("mixed", func(t *testing.T) {
		kp, ck := libs["kafka-python"], libs["confluent-kafka-python"]
		versions := kp.versions(t)
		for k, v := range ck.versions(t) {
			versions[k] = v
		}
		const group = "mixed-range"
		f := clientFixture{Library: "mixed", Versions: versions, Protocol: "range", Partitions: captureCounts,
			Group: group, ClientIDs: "default"}
		captureScenario(t, c, cl, "mixed", "range-kafka-python-leader", f, []func(string) *exec.Cmd{
			func(l string) *exec.Cmd { return startMember(t, kp.command(brokers, group, "range", "", "", l)) },
			func(l string) *exec.Cmd { return startMember(t, ck.command(brokers, group, "range", "", "", l)) },
			func(l string) *exec.Cmd { return startMember(t, ck.command(brokers, group, "range", "", "", l)) },
		})
	})
}

// captureScenario starts member 1 and waits for it to settle alone (so
// that it leads), starts member 2, records the settled group,
// starts member 3 and records the join, then stops member 2 (SIGINT: the
// library closes its consumer) and records the leave, writing
// testdata/dir/name-join.json and name-leave.json.
func captureScenario(t *testing.T, c *kafkatest.Cluster, cl *kgo.Client, dir, name string, f clientFixture, start []func(leaderLog string) *exec.Cmd) {
	t.Helper()
	leaderLog := filepath.Join(t.TempDir(), "leader.jsonl")
	start[0](leaderLog)
	one := settleClients(t, c, cl, f.Group, 1) // the first member leads
	second := start[1](leaderLog)
	two := settleClients(t, c, cl, f.Group, 2)
	leaving := newMember(one, two)
	if err := os.Truncate(leaderLog, 0); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	start[2](leaderLog)
	three := settleClients(t, c, cl, f.Group, 3)
	joinLeader := lastLeaderInput(t, leaderLog)
	if err := os.Truncate(leaderLog, 0); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := second.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	after := settleClients(t, c, cl, f.Group, 2)
	leaveLeader := lastLeaderInput(t, leaderLog)

	write := func(file string, fx clientFixture) {
		b, err := json.MarshalIndent(fx, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join("testdata", dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", dir, file), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	join := f
	join.Join, join.Before, join.After, join.Leader = newMember(two, three), two, three, joinLeader
	write(name+"-join.json", join)
	leave := f
	leave.Leave, leave.Before, leave.After, leave.Leader = leaving, three, after, leaveLeader
	write(name+"-leave.json", leave)
}

func startMember(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return cmd
}

// settleClients waits for the group to be Stable with n members and every
// partition assigned, then for the same generation to hold for three
// seconds, and returns the members as DescribeGroups reports them. The
// partitions are counted from the assignments as members decodes them:
// kfake's own count takes a topic listed twice in one assignment (as
// librdkafka's cooperative-sticky leader writes them) once.
func settleClients(t *testing.T, c *kafkatest.Cluster, cl *kgo.Client, group string, n int) []rdkMember {
	t.Helper()
	deadline := time.Now().Add(kafkatest.WaitTimeout)
	for {
		c.WaitStable(t, group, n, 0)
		g1 := describe(t, cl, group)
		time.Sleep(3 * time.Second)
		g2 := describe(t, cl, group)
		if g2.State == "Stable" && len(g2.Members) == n && reflect.DeepEqual(g1, g2) {
			ms := members(t, g2)
			assigned := 0
			for _, m := range ms {
				for _, ps := range m.Assigned {
					assigned += len(ps)
				}
			}
			if assigned == captureTotal {
				return ms
			}
			if time.Now().After(deadline) {
				t.Fatalf("group %s holds Stable with %d of %d partitions assigned", group, assigned, captureTotal)
			}
		}
	}
}

func lastLeaderInput(t *testing.T, path string) *leaderInput {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var last *leaderInput
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		in := new(leaderInput)
		if err := json.Unmarshal(sc.Bytes(), in); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		last = in
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return last
}

func buildCaptureProgram(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "capture")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("testdata", "capture")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build testdata/capture: %v\n%s", err, out)
	}
	return bin
}

// goModuleVersion reads a module's version from testdata/capture/go.mod.
func goModuleVersion(module, key string) func(t *testing.T) map[string]string {
	return func(t *testing.T) map[string]string {
		t.Helper()
		cmd := exec.Command("go", "list", "-m", "-f", "{{.Version}}", module)
		cmd.Dir = filepath.Join("testdata", "capture")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -m %s: %v", module, err)
		}
		return map[string]string{key: strings.TrimSpace(string(out)), "go": strings.TrimPrefix(goVersion(t), "go")}
	}
}

func goVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
