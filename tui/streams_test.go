package tui

import (
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/streams"
	"github.com/kgroups/kgroups/views/viewtest"
)

// withStreams is the fixture cluster plus the streams group of the
// protocol fixture (kafkatest.StreamsGroup, Reconciling), with its commits
// and log ends, as the poll would build it.
func withStreams(now time.Time) (*kafka.Snapshot, error) {
	snap := viewtest.Snapshot(now, 0)
	g := kafka.Group{Name: "order-enricher", Type: kafka.TypeStreams, Coordinator: snap.Brokers[0], OffsetsPartition: 45}
	rg := kafkatest.StreamsGroup(g.Name, kafka.StateReconciling)
	kafka.ApplyStreamsDescribe(&g, &rg)
	owner := map[string]*kafka.Member{}
	for i := range g.Members {
		for _, tp := range g.Members[i].Assignment {
			for _, p := range tp.Partitions {
				owner[tp.Topic+"/"+strconv.Itoa(int(p))] = &g.Members[i]
			}
		}
	}
	for _, topic := range []string{kafkatest.StreamsRepartition, kafkatest.StreamsOrders, kafkatest.StreamsPayments} {
		for p, end := range kafkatest.StreamsLogEnds[topic] {
			c := kafkatest.StreamsCommits[topic][int32(p)]
			po := kafka.PartitionOffsets{Topic: topic, Partition: int32(p), Committed: c, LeaderEpoch: -1, LogStart: 0, LogEnd: end, Lag: end - c}
			if m := owner[topic+"/"+strconv.Itoa(p)]; m != nil {
				po.SetOwner(m.MemberID, m.ClientID, m.Host, nil)
			}
			g.Partitions = append(g.Partitions, po)
		}
	}
	snap.Groups = append(snap.Groups, g)
	sort.Slice(snap.Groups, func(i, j int) bool { return snap.Groups[i].Name < snap.Groups[j].Name })
	return snap, nil
}

func openStreamsGroup(h *harness) {
	h.press(":")
	h.typeText("group order-enricher")
	h.press("enter")
}

// TestGoldenStreams is a streams group's Tasks and Topology tabs, and its
// Partitions tab on the input and repartition topics.
func TestGoldenStreams(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, sc := range []struct {
			name string
			keys []string
		}{
			{"streams_partitions", nil},
			{"streams_tasks", []string{"shift+tab", "shift+tab", "shift+tab"}},
			{"streams_topology", []string{"shift+tab", "shift+tab"}},
		} {
			t.Run(sc.name+"_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Options{}, withStreams)
				h.warm()
				openStreamsGroup(h)
				h.press(sc.keys...)
				golden.RequireEqual(t, []byte(h.view()))
			})
		}
	}
}

// TestStreamsGroupScreen checks, through the root model, that a streams
// group's screen has the Tasks and Topology tabs (and no Simulate), what
// they hold, and that member removal is unavailable with its reason.
func TestStreamsGroupScreen(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, withStreams)
	h.warm()
	openStreamsGroup(h)
	gm, ok := h.m.top().(*groupdetail.Model)
	if !ok {
		t.Fatalf("top screen is %T, want the group screen", h.m.top())
	}
	var titles []string
	var tasks *streams.Tasks
	var topo *streams.Topology
	for _, c := range gm.Hosted() {
		switch c := c.(type) {
		case *streams.Tasks:
			tasks = c
			titles = append(titles, "Tasks")
		case *streams.Topology:
			topo = c
			titles = append(titles, "Topology")
		default:
			titles = append(titles, "other")
		}
	}
	if strings.Join(titles, ",") != "other,Tasks,Topology,other" || tasks == nil || topo == nil {
		t.Fatalf("hosted tabs %v: want Timeline, Tasks, Topology, Diagnosis", titles)
	}
	var got []string
	for _, r := range tasks.Rows() {
		got = append(got, r.Member.MemberID+" "+r.Kind)
	}
	if want := "m-1 active,m-1 standby,m-2 active,m-2 standby,m-3 active,m-3 standby,m-3 warmup"; strings.Join(got, ",") != want {
		t.Errorf("task rows %v, want %s", got, want)
	}
	var reconciling []string
	for _, r := range tasks.Rows() {
		if r.Reconciling() {
			reconciling = append(reconciling, r.Member.MemberID+" "+r.Kind)
		}
	}
	if strings.Join(reconciling, ",") != "m-3 active,m-3 warmup" {
		t.Errorf("reconciling rows %v", reconciling)
	}
	if n := len(topo.Rows()); n != 6 {
		t.Errorf("%d topology rows, want 6", n)
	}
	// On the Members tab, removal is unavailable with the reason
	// kafka.GroupType.Check gives the CLI's rebalance.
	h.press("tab")
	want := format.Sanitize(kafka.TypeStreams.Check("order-enricher", kafka.ActionRebalance).Error())
	removes := 0
	for _, a := range gm.Actions() {
		if strings.HasPrefix(a.Name, "remove") {
			removes++
			if why := a.Unavailable(); why != want {
				t.Errorf("%s: unavailable %q, want %q", a.Name, why, want)
			}
		}
	}
	if removes != 2 {
		t.Errorf("%d remove actions on the Members tab, want 2", removes)
	}

	// A classic group keeps Simulate and gets no streams tabs.
	h.press("esc")
	h.press(":")
	h.typeText("group orders-app")
	h.press("enter")
	gm = h.m.top().(*groupdetail.Model)
	for _, c := range gm.Hosted() {
		switch c.(type) {
		case *streams.Tasks, *streams.Topology:
			t.Errorf("classic group hosts %T", c)
		}
	}
	if n := len(gm.Hosted()); n != 3 {
		t.Errorf("classic group hosts %d tabs, want 3 (Timeline, Simulate, Diagnosis)", n)
	}
}
