//go:build realkafka

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// coordinatorOf is the node id in the COORDINATOR (ID) cell of kgroups
// describe --state for group ("127.0.0.1:9092 (2)" -> 2), or -1 when
// kgroups could not read it.
func coordinatorOf(t *testing.T, c *realkafka.Cluster, group string) int {
	t.Helper()
	code, out, _ := kg(t, "-b", c.Bootstrap, "describe", group, "--state")
	if code != 0 {
		return -1
	}
	rows, err := realkafka.Rows(out)
	if err != nil || len(rows) != 1 {
		return -1
	}
	cell, _ := rows[0].Get("COORDINATOR (ID)")
	_, id, ok := strings.Cut(cell, "(")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSuffix(id, ")"))
	if err != nil {
		return -1
	}
	return n
}

// TestRealCoordinatorMove runs kgroups health over a window in which the
// broker coordinating the groups of a three-node Kafka 4.2 cluster stops
// and starts again, then every node restarts in turn, with Java consumers
// (classic and KIP-848) keeping up with a steady producer all along.
// kgroups describe must follow the coordinator to another node, as
// kafka-consumer-groups.sh does, and keep answering while a node is down;
// health must judge no group ERR: no STALL, STOP or REWIND from the moves;
// kgroups serve, polling all along, must show the new coordinator and no
// ERR either.
func TestRealCoordinatorMove(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := realkafka.Start(t, "", 3)
	topic := c.Name("f")
	c.CreateTopic(t, topic, 3)
	classic, k848 := c.Name("f-classic"), c.Name("f-848")

	// A steady producer: one record a partition every 100 ms.
	c.ProduceSteadily(t, 100*time.Millisecond, func(int) {
		for p := range int32(3) {
			c.ProduceAsync(topic, p)
		}
	})

	j := c.StartClients(t)
	for i := 1; i <= 2; i++ {
		j.Consumer(t, classic+"-"+strconv.Itoa(i), []string{topic}, classicProps(classic, javaRange)...)
		j.Consumer(t, k848+"-"+strconv.Itoa(i), []string{topic}, kip848Props(k848, "uniform")...)
	}
	c.Settled(t, map[string]realkafka.Want{classic: {Members: 2}, k848: {Members: 2}})

	type result struct {
		code        int
		out, errOut string
	}
	health := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		var out, errOut bytes.Buffer
		code := run(ctx, []string{"-b", c.Bootstrap, "health", classic, k848,
			"--window", "75s", "--interval", "2s", "-o", "json", "--fail-on", "ERR"}, strings.NewReader(""), &out, &errOut)
		health <- result{code, out.String(), errOut.String()}
	}()

	// kgroups serve polls all along, as a Prometheus exporter would.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listen := l.Addr().String()
	_ = l.Close()
	sctx, stopServe := context.WithCancel(context.Background())
	served := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run(sctx, []string{"-b", c.Bootstrap, "serve", "--listen", listen, "--refresh", "2s"}, strings.NewReader(""), &out, &errOut)
		served <- result{code, out.String(), errOut.String()}
	}()
	defer func() {
		stopServe()
		<-served
	}()
	metrics := func() string {
		resp, err := http.Get("http://" + listen + "/metrics")
		if err != nil {
			return ""
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		return string(b)
	}
	// series is the value of the first series of family whose labels hold
	// every one of labels, and its line, or "" when there is none.
	series := func(text, family string, labels ...string) string {
		for _, line := range strings.Split(text, "\n") {
			if !strings.HasPrefix(line, family+"{") {
				continue
			}
			ok := true
			for _, l := range labels {
				ok = ok && strings.Contains(line, l)
			}
			if ok {
				return line
			}
		}
		return ""
	}

	before := coordinatorOf(t, c, classic)
	if before < 1 || before > 3 {
		t.Fatalf("kgroups describe --state names coordinator %d", before)
	}
	time.Sleep(8 * time.Second) // a few polls before the move
	c.StopNode(t, before)
	moved := -1
	deadline := time.Now().Add(realkafka.Wait)
	for time.Now().Before(deadline) {
		if n := coordinatorOf(t, c, classic); n > 0 && n != before {
			moved = n
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if moved < 0 {
		t.Fatalf("kgroups describe --state still names node %d, stopped, as the coordinator", before)
	}
	// The Kafka tool agrees on where the group went.
	rows, err := realkafka.KafkaRows(c.Groups(t, "--describe", "--group", classic, "--state"))
	if err != nil || len(rows) != 1 {
		t.Fatalf("kafka-consumer-groups.sh --state: %v %v", rows, err)
	}
	if cell, _ := rows[0].Get("COORDINATOR (ID)"); !strings.HasSuffix(cell, "("+strconv.Itoa(moved)+")") {
		t.Errorf("kafka-consumer-groups.sh names coordinator %q, kgroups node %d", cell, moved)
	}
	if code, out, errOut := kg(t, "-b", c.Bootstrap, "describe", classic, k848); code != 0 {
		t.Errorf("kgroups describe with node %d down exited %d:\n%s%s", before, code, out, errOut)
	}
	// serve shows the move too.
	want := `coordinator="` + strconv.Itoa(moved) + `"`
	var last string
	for deadline := time.Now().Add(realkafka.Wait); time.Now().Before(deadline); time.Sleep(time.Second) {
		if last = series(metrics(), "kgroups_group_info", `group="`+classic+`"`); strings.Contains(last, want) {
			break
		}
	}
	if !strings.Contains(last, want) {
		t.Errorf("kgroups serve: %q, want %s", last, want)
	}
	c.StartNode(t, before)
	// Then a rolling restart: every node, one at a time, each back
	// before the next goes.
	for n := 1; n <= 3; n++ {
		c.StopNode(t, n)
		if code, out, errOut := kg(t, "-b", c.Bootstrap, "describe", classic, k848, "--state"); code != 0 {
			t.Errorf("kgroups describe --state with node %d down exited %d:\n%s%s", n, code, out, errOut)
		}
		c.StartNode(t, n)
	}

	r := <-health
	var doc struct {
		Groups []struct {
			Group      string `json:"group"`
			Status     string `json:"status"`
			Verdict    string `json:"verdict"`
			Partitions []struct {
				Topic     string `json:"topic"`
				Partition int32  `json:"partition"`
				Status    string `json:"status"`
			} `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("health -o json: %v\n%s%s", err, r.out, r.errOut)
	}
	if len(doc.Groups) != 2 {
		t.Fatalf("health judged %d groups:\n%s", len(doc.Groups), r.out)
	}
	for _, g := range doc.Groups {
		for _, p := range g.Partitions {
			switch p.Status {
			case "STALL", "STOP", "REWIND":
				t.Errorf("health: %s %s/%d is %s across the coordinator move", g.Group, p.Topic, p.Partition, p.Status)
			}
		}
		t.Logf("health: %s %s (%s)", g.Group, g.Verdict, g.Status)
	}
	if r.code != 0 {
		t.Errorf("health --fail-on ERR exited %d:\n%s%s", r.code, r.out, r.errOut)
	}
	// serve judged the same window: no group at severity 2 (ERR).
	text := metrics()
	for _, g := range []string{classic, k848} {
		line := series(text, "kgroups_group_verdict", `group="`+g+`"`)
		if line == "" || strings.HasSuffix(line, " 2") {
			t.Errorf("kgroups serve's verdict of %s: %q", g, line)
		}
		t.Logf("serve: %s", line)
	}
}
