package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestDescribeTimeLag: describe --time-lag reads the record at each
// committed offset; with the clock pinned, the time lag of records with
// known timestamps is exact, and marked "=" as the UI marks a lag read
// from the record.
func TestDescribeTimeLag(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	base := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "tl", 3)
	c.Produce(t, "tl", 0, 10, base) // record i stamped base + i s
	c.Produce(t, "tl", 1, 4, base)
	c.Produce(t, "tl", 2, 3, base)
	// g-a: tl/0 at 3 (base+3s), tl/1 caught up, tl/2 at 1 (unreadable
	// below). g-b: tl/0 at 8, the same partition at another offset.
	c.Commit(t, "g-a", map[string]map[int32]int64{"tl": {0: 3, 1: 4, 2: 1}})
	c.Commit(t, "g-b", map[string]map[int32]int64{"tl": {0: 8}})
	brokers := strings.Join(c.Addrs, ",")

	saved := describeClock
	t.Cleanup(func() { describeClock = saved })
	describeClock = func() time.Time { return base.Add(100 * time.Second) }

	t.Run("table", func(t *testing.T) {
		code, stdout, stderr := kg(t, "-b", brokers, "describe", "g-a", "g-b", "--time-lag")
		expectRun(t, code, stderr, 0, "Consumer group 'g-a' has no active members.\nConsumer group 'g-b' has no active members.\n")
		expectText(t, "stdout", stdout, lines(
			"GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  TIME-LAG",
			"g-a    tl             0               3              10    7  -            -     -            =1m37s",
			"g-a    tl             1               4               4    0  -            -     -                0s",
			"g-a    tl             2               1               3    2  -            -     -            =1m39s",
		)+"\n"+lines(
			"GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  TIME-LAG",
			"g-b    tl             0               8              10    2  -            -     -            =1m32s",
		))
	})

	t.Run("json", func(t *testing.T) {
		code, stdout, stderr := kg(t, "-b", brokers, "describe", "g-a", "g-b", "--time-lag", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		got := timeLagsJSON(t, stdout)
		want := map[string]any{"g-a tl/0": 97.0, "g-a tl/1": 0.0, "g-a tl/2": 99.0, "g-b tl/0": 92.0}
		if len(got) != len(want) {
			t.Errorf("time lags %v, want %v", got, want)
		}
		for k, w := range want {
			if v, ok := got[k]; !ok || v != w {
				t.Errorf("%s: timeLagSeconds %v (present %v), want %v", k, v, ok, w)
			}
		}
	})

	t.Run("unreadable partition", func(t *testing.T) {
		f := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "tl", Partitions: []int32{2}, Err: kerr.TopicAuthorizationFailed, Count: -1})
		defer f.Remove()
		code, stdout, stderr := kg(t, "-b", brokers, "describe", "g-a", "--time-lag", "-o", "json")
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		const prefix = "kgroups: group \"g-a\": time lag: read tl/2 at offset 1: TOPIC_AUTHORIZATION_FAILED"
		if !strings.HasPrefix(stderr, prefix) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("stderr %q, want one line starting %q", stderr, prefix)
		}
		// The other partitions are still measured; the unreadable one
		// is unknown (null), not 0.
		got := timeLagsJSON(t, stdout)
		if got["g-a tl/0"] != 97.0 || got["g-a tl/1"] != 0.0 {
			t.Errorf("time lags %v", got)
		}
		if v, ok := got["g-a tl/2"]; !ok || v != nil {
			t.Errorf("tl/2 time lag %v (present %v), want null", v, ok)
		}
	})

	t.Run("usage", func(t *testing.T) {
		for _, view := range []string{"--members", "--state"} {
			code, stdout, stderr := kg(t, "-b", brokers, "describe", "g-a", "--time-lag", view)
			if code != 2 || stdout != "" || stderr != "kgroups: --time-lag is per partition: it does not go with --members or --state\nRun 'kgroups describe --help' for usage.\n" {
				t.Errorf("%s: exit %d stdout %q stderr %q", view, code, stdout, stderr)
			}
		}
	})
}

// timeLagsJSON maps "group topic/partition" to timeLagSeconds in a
// describe document, leaving out partitions without the field.
func timeLagsJSON(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var doc struct {
		Groups []struct {
			Group      string           `json:"group"`
			Partitions []map[string]any `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	out := map[string]any{}
	for _, g := range doc.Groups {
		for _, p := range g.Partitions {
			if v, ok := p["timeLagSeconds"]; ok {
				out[g.Group+" "+p["topic"].(string)+"/"+jsonNumber(p["partition"])] = v
			}
		}
	}
	return out
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
