//go:build realkafka

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// Kafka's other group tools.
const (
	shareGroupCommand   = "org.apache.kafka.tools.consumer.group.ShareGroupCommand"
	streamsGroupCommand = "org.apache.kafka.tools.streams.StreamsGroupCommand"
	configCommand       = "kafka.admin.ConfigCommand"
)

// tool runs one of Kafka's tools against c and fails the test unless it
// exits 0.
func tool(t *testing.T, c *realkafka.Cluster, class string, args ...string) string {
	t.Helper()
	out, errOut, code := c.Tool(t, class, append([]string{"--bootstrap-server", c.Bootstrap}, args...)...)
	if code != 0 {
		t.Fatalf("%s %v: exit %d\n%s%s", class, args, code, out, errOut)
	}
	return out
}

// stillRows runs a Kafka tool until two runs in a row print the same and
// ready accepts the rows, and returns them.
func stillRows(t *testing.T, what string, run func() string, ready func([]realkafka.Row) bool) []realkafka.Row {
	t.Helper()
	deadline := time.Now().Add(realkafka.Wait)
	prev := ""
	for time.Now().Before(deadline) {
		out := run()
		rows, err := realkafka.KafkaRows(out)
		if err == nil && out == prev && ready(rows) {
			return rows
		}
		prev = out
	}
	t.Fatalf("%s never held still:\n%s", what, prev)
	return nil
}

// compareRows holds kgroups' rows (from kgArgs) to Kafka's rows, column
// by column under Kafka's header, with rename mapping a Kafka column to
// kgroups' name for it.
func compareRows(t *testing.T, what string, c *realkafka.Cluster, kgArgs []string, want []realkafka.Row, rename map[string]string, sortBy ...string) {
	t.Helper()
	code, out, errOut := kg(t, append([]string{"-b", c.Bootstrap}, kgArgs...)...)
	if code != 0 {
		t.Fatalf("%s: kgroups %v exited %d:\n%s%s", what, kgArgs, code, out, errOut)
	}
	got, err := realkafka.Rows(out)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, out)
	}
	for i := range got {
		h := make([]string, len(got[i].Header))
		for j, col := range got[i].Header {
			h[j] = col
			for k, v := range rename {
				if v == col {
					h[j] = k
				}
			}
		}
		got[i].Header = h
	}
	if sortBy != nil {
		got, want = realkafka.SortRows(got, sortBy...), realkafka.SortRows(want, sortBy...)
	}
	if d := realkafka.Same(got, want, exact); d != "" {
		t.Errorf("%s: kgroups %s differs from Kafka's tool:\n%s", what, strings.Join(kgArgs, " "), d)
	}
}

// dropColumn is rows without column col.
func dropColumn(rows []realkafka.Row, col string) []realkafka.Row {
	out := make([]realkafka.Row, len(rows))
	for i, r := range rows {
		for j, h := range r.Header {
			if h != col {
				out[i].Header = append(out[i].Header, h)
				out[i].Cells = append(out[i].Cells, r.Cells[j])
			}
		}
	}
	return out
}

// TestRealShareGroup holds kgroups' describe of a share group (KIP-932)
// with two Java share consumers to kafka-share-groups.sh's, once every
// record is acknowledged.
func TestRealShareGroup(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	topic, group := c.Name("s"), c.Name("sg")
	c.CreateTopic(t, topic, 3)
	tool(t, c, configCommand, "--alter", "--entity-type", "groups", "--entity-name", group,
		"--add-config", "share.auto.offset.reset=earliest")
	c.Produce(t, topic, 0, 7, time.Time{})
	c.Produce(t, topic, 1, 4, time.Time{})
	j := c.StartClients(t)
	j.Share(t, "s1", []string{topic}, "group.id="+group)
	j.Share(t, "s2", []string{topic}, "group.id="+group)

	offsets := stillRows(t, "kafka-share-groups.sh --describe", func() string {
		return tool(t, c, shareGroupCommand, "--describe", "--group", group, "--verbose")
	}, func(rows []realkafka.Row) bool { return len(rows) == 3 })
	// Kafka 4.2 keeps a share partition's start offset where it was until
	// its state is written again, and counts acknowledged records out of
	// the lag: the numbers are the broker's, and kgroups must show them.
	compareRows(t, "share describe", c, []string{"describe", group, "--verbose"}, offsets, nil)

	membersRows := stillRows(t, "kafka-share-groups.sh --members", func() string {
		return tool(t, c, shareGroupCommand, "--describe", "--group", group, "--members", "--verbose")
	}, func(rows []realkafka.Row) bool { return len(rows) == 2 })
	compareRows(t, "share members", c, []string{"describe", group, "--members", "--verbose"}, membersRows, nil, "CONSUMER-ID")

	state := stillRows(t, "kafka-share-groups.sh --state", func() string {
		return tool(t, c, shareGroupCommand, "--describe", "--group", group, "--state", "--verbose")
	}, func(rows []realkafka.Row) bool { return len(rows) == 1 })
	compareRows(t, "share state", c, []string{"describe", group, "--state", "--verbose"}, state, nil)

	// Resets, once the group is Empty: kgroups plans what
	// kafka-share-groups.sh --reset-offsets --dry-run plans, and the Kafka
	// tool reads back what kgroups wrote.
	j.Close(t, "s1")
	j.Close(t, "s2")
	stillRows(t, "kafka-share-groups.sh --state", func() string {
		return tool(t, c, shareGroupCommand, "--describe", "--group", group, "--state")
	}, func(rows []realkafka.Row) bool {
		st, _ := rows[0].Get("STATE")
		return len(rows) == 1 && st == "Empty"
	})
	for _, tc := range []struct {
		name     string
		scenario []string
		want     []string // START-OFFSET of partitions 0, 1, 2 afterwards
	}{
		{"to-latest", []string{"--to-latest", "--all-topics"}, []string{"7", "4", "0"}},
		{"to-earliest", []string{"--to-earliest", "--topic", topic + ":0,1"}, []string{"0", "0", "0"}},
	} {
		plan, err := realkafka.KafkaRows(tool(t, c, shareGroupCommand, append([]string{"--reset-offsets", "--group", group, "--dry-run"}, tc.scenario...)...))
		if err != nil {
			t.Fatal(err)
		}
		compareRows(t, "share reset "+tc.name+" (dry run)", c, append([]string{"reset", group}, tc.scenario...), plan, nil, "TOPIC", "PARTITION")
		if code, out, errOut := kg(t, append([]string{"-b", c.Bootstrap, "reset", group, "--execute"}, tc.scenario...)...); code != 0 {
			t.Fatalf("kgroups reset %s exited %d:\n%s%s", tc.name, code, out, errOut)
		}
		after, err := realkafka.KafkaRows(tool(t, c, shareGroupCommand, "--describe", "--group", group))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range after {
			v, _ := r.Get("START-OFFSET")
			got = append(got, v)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("after kgroups reset %s kafka-share-groups.sh reads START-OFFSET %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRealStreamsGroup holds kgroups' describe of a streams group
// (KIP-1071) run by a Kafka Streams app (group.protocol=streams, counting
// records by key) to kafka-streams-groups.sh's, once the app has committed
// its input up to the log end.
func TestRealStreamsGroup(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	in, out, app := c.Name("words"), c.Name("counts"), c.Name("wc")
	c.CreateTopic(t, in, 2)
	c.CreateTopic(t, out, 1)
	c.Produce(t, in, 0, 6, time.Time{})
	c.Produce(t, in, 1, 3, time.Time{})
	j := c.StartClients(t)
	j.Streams(t, app, in, out, "application.id="+app, "group.protocol=streams", "commit.interval.ms=100",
		"state.dir="+t.TempDir(), "num.stream.threads=2")

	offsets := stillRows(t, "kafka-streams-groups.sh --describe", func() string {
		return tool(t, c, streamsGroupCommand, "--describe", "--group", app, "--verbose")
	}, func(rows []realkafka.Row) bool {
		if len(rows) != 2 {
			return false
		}
		for _, r := range rows {
			if lag, _ := r.Get("OFFSET-LAG"); lag != "0" {
				return false
			}
		}
		return true
	})
	compareRows(t, "streams describe", c, []string{"describe", app, "--verbose"}, offsets, nil, "TOPIC", "PARTITION")
	// Without --verbose, kgroups prints the same offsets under LAG.
	compareRows(t, "streams describe", c, []string{"describe", app}, dropColumn(offsets, "LEADER-EPOCH"),
		map[string]string{"OFFSET-LAG": "LAG"}, "TOPIC", "PARTITION")
	members := stillRows(t, "kafka-streams-groups.sh --members", func() string {
		return tool(t, c, streamsGroupCommand, "--describe", "--group", app, "--members", "--verbose")
	}, func(rows []realkafka.Row) bool { return len(rows) == 2 })
	compareRows(t, "streams members", c, []string{"describe", app, "--members", "--verbose"}, members, nil, "MEMBER")
	state := stillRows(t, "kafka-streams-groups.sh --state", func() string {
		return tool(t, c, streamsGroupCommand, "--describe", "--group", app, "--state", "--verbose")
	}, func(rows []realkafka.Row) bool { return len(rows) == 1 })
	compareRows(t, "streams state", c, []string{"describe", app, "--state", "--verbose"}, state, nil)

	// A reset of the input topic once the app is stopped: kgroups plans
	// what kafka-streams-groups.sh --reset-offsets --dry-run plans, and the
	// Kafka tool's --to-current reads back what kgroups wrote.
	j.Close(t, app)
	stillRows(t, "kafka-streams-groups.sh --state", func() string {
		return tool(t, c, streamsGroupCommand, "--describe", "--group", app, "--state")
	}, func(rows []realkafka.Row) bool {
		st, _ := rows[0].Get("STATE")
		return len(rows) == 1 && st == "Empty"
	})
	plan, err := realkafka.KafkaRows(tool(t, c, streamsGroupCommand, "--reset-offsets", "--group", app,
		"--input-topic", in, "--to-offset", "2", "--dry-run"))
	if err != nil {
		t.Fatal(err)
	}
	compareRows(t, "streams reset (dry run)", c, []string{"reset", app, "--to-offset", "2", "--topic", in}, plan, nil, "TOPIC", "PARTITION")
	if code, out, errOut := kg(t, "-b", c.Bootstrap, "reset", app, "--to-offset", "2", "--topic", in, "--execute"); code != 0 {
		t.Fatalf("kgroups reset of the streams group exited %d:\n%s%s", code, out, errOut)
	}
	current, err := realkafka.KafkaRows(tool(t, c, streamsGroupCommand, "--reset-offsets", "--group", app,
		"--input-topic", in, "--to-current", "--dry-run"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range realkafka.SortRows(current, "PARTITION") {
		v, _ := r.Get("NEW-OFFSET")
		got = append(got, v)
	}
	if strings.Join(got, " ") != "2 2" {
		t.Errorf("after kgroups reset --to-offset 2, kafka-streams-groups.sh --to-current reads %v, want [2 2]", got)
	}
}
