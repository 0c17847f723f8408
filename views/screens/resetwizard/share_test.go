package resetwizard

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// startShareMember runs a real kgo share-group member of sg on jobs that
// polls (acknowledging what it polled) until the returned stop is called.
func startShareMember(t *testing.T, c *kafkatest.Cluster) (stop func()) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.ShareGroup("sg"), kgo.ConsumeTopics("jobs"), kgo.ClientID("share-app"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
			cl.Close()
		}
	}
	t.Cleanup(stop)
	return stop
}

func (f *fixture) startOffsets(t *testing.T) map[string]int64 {
	t.Helper()
	resp, err := f.c.Admin().DescribeShareGroupOffsets(context.Background(), "sg")
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]int64)
	for _, ps := range resp["sg"].Offsets {
		for _, o := range ps {
			if o.StartOffset >= 0 {
				out[o.Topic+"/"+strconv.Itoa(int(o.Partition))] = o.StartOffset
			}
		}
	}
	return out
}

// TestWizardShareGroup: a wizard opened on share group sg without knowing
// its type learns it from the service's refusal of --to-current, then
// offers only the scenarios a share group accepts; a live group's reset is
// refused; once Empty the reset is applied and verified.
func TestWizardShareGroup(t *testing.T) {
	f := newFixture(t)
	f.c.CreateTopic(t, "jobs", 2)
	f.c.Produce(t, "jobs", 0, 10, base)
	f.c.Produce(t, "jobs", 1, 6, base)
	f.c.SetGroupConfigs("sg", map[string]string{"share.auto.offset.reset": "earliest"})
	stop := startShareMember(t, f.c)
	kafkatest.Eventually(t, "the member acknowledges every record", func() bool {
		return reflect.DeepEqual(f.startOffsets(t), map[string]int64{"jobs/0": 10, "jobs/1": 6})
	})

	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "sg")
	mustContain(t, m, "3  to-current   the committed offset", "5  shift-by     the committed offset")
	press(m, "3", "enter") // to-current
	if m.step != stepScenario {
		t.Fatalf("step = %d, want the scenario step after the refusal", m.step)
	}
	mustContain(t, m, "Move the start offsets of", `group "sg" is a share group: --to-current does not apply`,
		"1  to-earliest", "2  to-latest", "3  to-offset", "4  to-datetime", "5  by-duration", "6  from-file")
	if v := view(m); strings.Contains(v, "to-current   the committed offset") || strings.Contains(v, "shift-by     the committed offset") {
		t.Fatalf("a share group is still offered a scenario it refuses:\n%s", v)
	}

	press(m, "1", "enter") // to-earliest, every partition
	mustContain(t, m, "step 3 of 5: preview", "state Stable", "2 of 2 partitions change; 16 records will be consumed again, 0 skipped.",
		"TOPIC PARTITION NEW-OFFSET START-OFFSET", `✖ Cannot apply now: cannot reset the offsets of share group "sg": it is Stable with 1 live member:`, "stop its consumers")
	press(m, "enter", "y")
	if n := f.backend.applies.Load(); n != 0 || m.step != stepPreview {
		t.Fatalf("a live share group: step %d, applies %d", m.step, n)
	}

	stop()
	kafkatest.Eventually(t, "sg is Empty", func() bool {
		ds, err := f.c.Admin().DescribeShareGroups(context.Background(), "sg")
		return err == nil && ds["sg"].GroupState == kafka.StateEmpty
	})
	m = NewGroup(context.Background(), testCommon(false, false), f.backend, "sg").ForGroupType(kafka.TypeShare)
	mustContain(t, m, "1  to-earliest", "3  to-offset", "6  from-file")
	press(m, "1")
	mustContain(t, m, "empty: every partition the group has a start offset for")
	press(m, "enter")
	mustContain(t, m, "state Empty", "jobs          0          0           10")
	press(m, "enter")
	mustContain(t, m, "This sets 2 start offsets of share group sg (2 will change).")
	press(m, "y")
	mustContain(t, m, "● All 2 partitions verified", "PREVIOUS-START", "START-NOW", "jobs          0          0             10         0 ok")
	if got := f.startOffsets(t); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 0, "jobs/1": 0}) {
		t.Fatalf("start offsets = %v", got)
	}
	if n := f.backend.applies.Load(); n != 1 {
		t.Fatalf("applies = %d", n)
	}
}
