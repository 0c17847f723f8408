package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// streamsCluster is a kfake cluster where "order-enricher" is a streams
// group (kafkatest.StreamsGroup in state) with kfake's real commits
// kafkatest.StreamsCommits, and "future-work" a group of a type kgroups does
// not know.
type streamsCluster struct {
	*kafkatest.Cluster
	srv     *kafkatest.GroupServer
	brokers string
}

const streamsGroup = "order-enricher"

func startStreamsCluster(t *testing.T, state string) *streamsCluster {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.SetUpStreams(t, streamsGroup)
	srv := c.ServeGroups(t)
	srv.SetStreams(kafkatest.StreamsGroup(streamsGroup, state))
	srv.SetListed("future-work", "queue", "queue", "Active")
	return &streamsCluster{Cluster: c, srv: srv, brokers: strings.Join(c.Addrs, ",")}
}

func (c *streamsCluster) kg(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return kg(t, append([]string{"-b", c.brokers}, args...)...)
}

const streamsWarning = "Warning: Streams group 'order-enricher' is rebalancing.\n"

// TestDescribeStreamsGroup checks every describe view of a streams group
// against the protocol fixture, with offsets and lag from kfake's real
// OffsetFetch and ListOffsets.
func TestDescribeStreamsGroup(t *testing.T) {
	c := startStreamsCluster(t, kafka.StateReconciling)

	code, out, errOut := c.kg(t, "describe", streamsGroup)
	expectRun(t, code, errOut, 0, streamsWarning)
	expectText(t, "describe", out, lines(
		"GROUP           TOPIC                                   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG",
		"order-enricher  order-enricher-by-customer-repartition          0               5               5    0",
		"order-enricher  order-enricher-by-customer-repartition          1               6               6    0",
		"order-enricher  order-enricher-by-customer-repartition          2               7               7    0",
		"order-enricher  order-enricher-by-customer-repartition          3               7               8    1",
		"order-enricher  orders                                          0              15              20    5",
		"order-enricher  orders                                          1              21              21    0",
		"order-enricher  orders                                          2              10              22   12",
		"order-enricher  orders                                          3              23              23    0",
		"order-enricher  payments                                        0              10              10    0",
		"order-enricher  payments                                        1               8              11    3",
		"order-enricher  payments                                        2              12              12    0",
		"order-enricher  payments                                        3              13              13    0",
	))

	code, out, errOut = c.kg(t, "describe", streamsGroup, "--members", "--wide")
	expectRun(t, code, errOut, 0, streamsWarning)
	expectText(t, "describe --members --wide", out, lines(
		"GROUP           MEMBER  PROCESS             CLIENT-ID                        ASSIGNMENTS                                                                             MEMBER-PROTOCOL  MEMBER-EPOCH  HOST        INSTANCE-ID       RACK      ENDPOINT        CLIENT-TAGS",
		"order-enricher  m-1     5f1c0a9e-process-a  order-enricher-a-StreamThread-1  ACTIVE: 0:[0,1] 1:[0]; STANDBY: 0:[2]                                                   streams                    13  /10.0.0.11  -                 use1-az1  10.0.0.11:8080  env=prod,zone=use1-az1",
		"order-enricher  m-2     5f1c0a9e-process-a  order-enricher-a-StreamThread-2  ACTIVE: 0:[2,3] 1:[3]; STANDBY: 1:[0]                                                   streams                    13  /10.0.0.11  order-enricher-a  use1-az1  10.0.0.11:8080  env=prod,zone=use1-az1",
		"order-enricher  m-3     9b2d44c1-process-b  order-enricher-b-StreamThread-1  ACTIVE: 1:[1]; STANDBY: 0:[0]; WARMUP: 1:[2]; TARGET-ACTIVE: 1:[1,2]; TARGET-WARMUP: -  streams                    12  /10.0.0.12  -                 use1-az2  10.0.0.12:8080  env=prod,zone=use1-az2",
	))

	code, out, errOut = c.kg(t, "describe", streamsGroup, "--state")
	expectRun(t, code, errOut, 0, streamsWarning)
	id := c.CoordinatorFor(streamsGroup)
	coord := fmt.Sprintf("%s (%d)", c.Addrs[id], id)
	expectText(t, "describe --state", out, lines(
		"GROUP           COORDINATOR (ID)"+sp(len(coord)-16)+"  STATE        GROUP-EPOCH  TARGET-ASSIGNMENT-EPOCH  #MEMBERS  TOPOLOGY-EPOCH",
		"order-enricher  "+coord+"  Reconciling           13                       13         3               2",
	))

	code, out, errOut = c.kg(t, "describe", streamsGroup, "--topology")
	expectRun(t, code, errOut, 0, streamsWarning)
	expectText(t, "describe --topology", out, lines(
		"GROUP           SUBTOPOLOGY  ROLE                TOPIC                                   PARTITIONS",
		"order-enricher  0            source              orders                                           -",
		"order-enricher  0            repartition-sink    order-enricher-by-customer-repartition           -",
		"order-enricher  0            changelog           order-enricher-dedup-store-changelog             4",
		"order-enricher  1            source              payments                                         -",
		"order-enricher  1            repartition-source  order-enricher-by-customer-repartition           4",
		"order-enricher  1            changelog           order-enricher-totals-store-changelog            4",
	))
}

// TestDescribeStreamsGroupJSON checks the streams additions of the JSON
// document: the topology, and each member's tasks and target tasks.
func TestDescribeStreamsGroupJSON(t *testing.T) {
	c := startStreamsCluster(t, kafka.StateReconciling)
	code, out, errOut := c.kg(t, "describe", streamsGroup, "-o", "json")
	expectRun(t, code, errOut, 0, "")
	var doc struct {
		Groups []map[string]json.RawMessage `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Groups) != 1 {
		t.Fatalf("json: %v, %d groups", err, len(doc.Groups))
	}
	g := doc.Groups[0]
	compact := func(raw json.RawMessage) string {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for field, want := range map[string]string{
		"type":            `"streams"`,
		"state":           `"Reconciling"`,
		"groupEpoch":      `13`,
		"assignmentEpoch": `13`,
		"totalLag":        `21`,
		"topology": `{"epoch":2,"subtopologies":[` +
			`{"id":"0","sourceTopics":["orders"],"repartitionSourceTopics":[],"repartitionSinkTopics":["order-enricher-by-customer-repartition"],"stateChangelogTopics":[{"topic":"order-enricher-dedup-store-changelog","partitions":4,"replicationFactor":3}]},` +
			`{"id":"1","sourceTopics":["payments"],"repartitionSourceTopics":[{"topic":"order-enricher-by-customer-repartition","partitions":4,"replicationFactor":3}],"repartitionSinkTopics":[],"stateChangelogTopics":[{"topic":"order-enricher-totals-store-changelog","partitions":4,"replicationFactor":3}]}]}`,
	} {
		if got := compact(g[field]); got != want {
			t.Errorf("%s = %s, want %s", field, got, want)
		}
	}
	var members []map[string]json.RawMessage
	if err := json.Unmarshal(g["members"], &members); err != nil || len(members) != 3 {
		t.Fatalf("members: %v, %d", err, len(members))
	}
	m3 := members[2]
	for field, want := range map[string]string{
		"memberId":         `"m-3"`,
		"processId":        `"9b2d44c1-process-b"`,
		"userEndpoint":     `"10.0.0.12:8080"`,
		"clientTags":       `[{"key":"env","value":"prod"},{"key":"zone","value":"use1-az2"}]`,
		"memberEpoch":      `12`,
		"topologyEpoch":    `2`,
		"isClassic":        `false`,
		"instanceId":       `null`,
		"rack":             `"use1-az2"`,
		"tasks":            `{"active":[{"subtopology":"1","partitions":[1]}],"standby":[{"subtopology":"0","partitions":[0]}],"warmup":[{"subtopology":"1","partitions":[2]}]}`,
		"targetTasks":      `{"active":[{"subtopology":"1","partitions":[1,2]}],"standby":[{"subtopology":"0","partitions":[0]}],"warmup":[]}`,
		"assignment":       `[{"topic":"order-enricher-by-customer-repartition","partitions":[1]},{"topic":"payments","partitions":[1]}]`,
		"targetAssignment": `[{"topic":"order-enricher-by-customer-repartition","partitions":[1,2]},{"topic":"payments","partitions":[1,2]}]`,
	} {
		if got := compact(m3[field]); got != want {
			t.Errorf("m-3 %s = %s, want %s", field, got, want)
		}
	}
}

// TestDescribeUnknownGroupType: a group of a type kgroups does not know is
// listed with its type and state; describe refuses it by name and exits 1,
// and still describes the other groups asked for.
func TestDescribeUnknownGroupType(t *testing.T) {
	c := startStreamsCluster(t, kafka.StateStable)
	code, out, errOut := c.kg(t, "list")
	expectRun(t, code, errOut, 0, "")
	expectText(t, "list", out, lines(
		"GROUP           TYPE     STATE   ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR",
		fmt.Sprintf("future-work     queue    Active  -               0       0           0    -            %d", c.CoordinatorFor("future-work")),
		fmt.Sprintf("order-enricher  streams  Stable  sticky          3       3          12   21            %d", c.CoordinatorFor(streamsGroup)),
	))
	// --type keeps the streams group; a type kgroups does not know is
	// listed, but no --type value names it.
	code, out, errOut = c.kg(t, "list", "--type", "streams")
	expectRun(t, code, errOut, 0, "")
	expectText(t, "list --type streams", out, lines(
		"GROUP           TYPE     STATE   ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR",
		fmt.Sprintf("order-enricher  streams  Stable  sticky          3       3          12   21            %d", c.CoordinatorFor(streamsGroup)),
	))
	code, out, errOut = c.kg(t, "describe", "future-work", streamsGroup, "--state")
	expectRun(t, code, errOut, 1, "kgroups cannot describe groups of type queue yet (group \"future-work\" is Active)\n")
	if !strings.HasPrefix(out, "GROUP           COORDINATOR (ID)") || !strings.Contains(out, "order-enricher  ") || strings.Contains(out, "future-work") {
		t.Errorf("stdout %q: want the streams group's state only", out)
	}
}

// TestClassicOnlyActionsRefuseStreams: rebalance and simulate name the
// group's type, exit 1 and send nothing to the group.
func TestClassicOnlyActionsRefuseStreams(t *testing.T) {
	c := startStreamsCluster(t, kafka.StateStable)
	var mu sync.Mutex
	sent := map[string]int{}
	for _, key := range []kmsg.Key{kmsg.LeaveGroup, kmsg.OffsetCommit, kmsg.JoinGroup, kmsg.ConsumerGroupHeartbeat} {
		c.ControlKey(int16(key), func(r kmsg.Request) (kmsg.Response, error, bool) {
			c.KeepControl()
			mu.Lock()
			sent[kmsg.NameForKey(r.Key())]++
			mu.Unlock()
			return nil, nil, false
		})
	}
	const (
		rebalance = "rebalance is not available for streams groups (streams groups are rebalanced by the streams assignor on the broker, not by removing members)"
		simulate  = "simulate is not available for streams groups (the broker assigns a streams group's tasks; there is no client assignor to simulate)"
	)
	for _, tc := range []struct {
		args []string
		why  string
	}{
		{[]string{"rebalance", streamsGroup, "--member", "m-1", "--execute"}, rebalance},
		{[]string{"rebalance", streamsGroup, "--all"}, rebalance},
		{[]string{"simulate", streamsGroup, "--join", "1"}, simulate},
	} {
		code, out, errOut := c.kg(t, tc.args...)
		want := fmt.Sprintf("kgroups: group \"order-enricher\" is a streams group: %s; nothing was sent\n", tc.why)
		expectRun(t, code, errOut, 1, want)
		if out != "" {
			t.Errorf("%v printed %q", tc.args, out)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 0 {
		t.Errorf("requests sent to the group: %v", sent)
	}
}

// committedOffsets reads group's commits with kadm, as the check of what a
// write left behind.
func (c *streamsCluster) committedOffsets(t *testing.T, group string) map[string]int64 {
	t.Helper()
	resp, err := c.Admin().FetchOffsets(context.Background(), group)
	out := map[string]int64{}
	if errors.Is(err, kerr.GroupIDNotFound) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Each(func(o kadm.OffsetResponse) {
		out[fmt.Sprintf("%s/%d", o.Topic, o.Partition)] = o.At
	})
	return out
}

// TestResetStreamsGroup resets an Empty streams group's input topic through
// the same plan, receipt, verify and undo as any group: kfake's real
// OffsetCommit and OffsetFetch carry the offsets. Repartition topics and a
// group that is not Empty are refused with nothing sent.
func TestResetStreamsGroup(t *testing.T) {
	c := startStreamsCluster(t, kafka.StateEmpty)
	receipts := filepath.Join(os.Getenv("XDG_STATE_HOME"), "kgroups", "receipts")

	code, out, errOut := c.kg(t, "reset", streamsGroup, "--to-earliest", "--topic", "orders:0,2", "--execute")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	expectText(t, "reset", out, lines(
		"GROUP           TOPIC   PARTITION  NEW-OFFSET  PREVIOUS-OFFSET  COMMITTED-NOW  STATUS",
		"order-enricher  orders          0           0               15              0  ok",
		"order-enricher  orders          2           0               10              0  ok",
	))
	got := c.committedOffsets(t, streamsGroup)
	if got["orders/0"] != 0 || got["orders/2"] != 0 || got["orders/1"] != 21 || got[kafkatest.StreamsRepartition+"/3"] != 7 {
		t.Errorf("commits after reset %v", got)
	}
	path := receiptPath(t, errOut)
	if filepath.Dir(path) != receipts {
		t.Errorf("receipt %s not in %s", path, receipts)
	}
	code, _, errOut = c.kg(t, "undo", path, "--execute")
	if code != 0 {
		t.Fatalf("undo: exit %d: %s", code, errOut)
	}
	if got := c.committedOffsets(t, streamsGroup); got["orders/0"] != 15 || got["orders/2"] != 10 {
		t.Errorf("commits after undo %v", got)
	}

	// --all-topics means the input topics: the repartition topic stays.
	code, out, errOut = c.kg(t, "reset", streamsGroup, "--to-latest", "--all-topics")
	if code != 0 {
		t.Fatalf("all topics: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "repartition") || strings.Count(out, "\norder-enricher  orders ") != 4 || strings.Count(out, "\norder-enricher  payments ") != 4 {
		t.Errorf("--all-topics plan:\n%s", out)
	}

	before := c.committedOffsets(t, streamsGroup)
	code, out, errOut = c.kg(t, "reset", streamsGroup, "--to-earliest", "--topic", kafkatest.StreamsRepartition, "--execute")
	expectRun(t, code, errOut, 1, "kgroups: cannot change the offsets of topic \"order-enricher-by-customer-repartition\" for streams group \"order-enricher\": it is an internal topic of the application (repartition or changelog), which Kafka Streams manages. Nothing was changed. Input topics: orders, payments\n")
	if out != "" {
		t.Errorf("stdout %q", out)
	}
	code, _, errOut = c.kg(t, "delete-offsets", streamsGroup, "--topic", kafkatest.StreamsRepartition, "--execute")
	if code != 1 || !strings.Contains(errOut, "is an internal topic of the application") {
		t.Errorf("delete-offsets of the repartition topic: exit %d: %s", code, errOut)
	}

	// A live group is refused.
	c.srv.SetStreams(kafkatest.StreamsGroup(streamsGroup, kafka.StateStable))
	code, _, errOut = c.kg(t, "reset", streamsGroup, "--to-earliest", "--topic", "orders", "--execute")
	if code != 1 || !strings.Contains(errOut, "cannot reset the offsets of group \"order-enricher\": it is Stable with 3 live members:") ||
		!strings.HasSuffix(errOut, "Nothing was changed. The offsets of a streams group can only be changed while it is Empty: stop every instance of the application, then try again.\n") {
		t.Errorf("live group: exit %d:\n%s", code, errOut)
	}
	if after := c.committedOffsets(t, streamsGroup); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("commits changed: %v, were %v", after, before)
	}
}

// TestDeleteStreamsGroup deletes an Empty streams group with DeleteGroups;
// its internal topics stay.
func TestDeleteStreamsGroup(t *testing.T) {
	c := startStreamsCluster(t, kafka.StateEmpty)
	code, _, errOut := c.kg(t, "delete", streamsGroup, "--execute")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if d := c.srv.Deleted(); len(d) != 1 || d[0] != streamsGroup {
		t.Errorf("deleted %v", d)
	}
	if got := c.committedOffsets(t, streamsGroup); len(got) != 0 {
		t.Errorf("commits after delete %v", got)
	}
	topics, err := c.Admin().ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range []string{kafkatest.StreamsRepartition, kafkatest.StreamsDedupLog, kafkatest.StreamsTotalsLog} {
		if !topics.Has(topic) {
			t.Errorf("internal topic %s was deleted", topic)
		}
	}
}
