package tui

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// shareGroup is a share group of two members on topic jobs: jobs/0 is
// member A's, jobs/2 member B's and jobs/1 both members'. At poll i its
// start offsets have reached 100+20i of a log end at 120+20i, except jobs/2
// whose start offset stopped at 100.
func shareGroup(poll int) kafka.Group {
	n := int64(poll)
	a := kafka.Member{MemberID: "share-member-a", ClientID: "jobs-worker", Host: "/10.0.3.1", MemberEpoch: 4, Subscribed: []string{"jobs"},
		Assignment: []kafka.TopicPartitions{{Topic: "jobs", Partitions: []int32{0, 1}}}}
	b := kafka.Member{MemberID: "share-member-b", ClientID: "jobs-worker", Host: "/10.0.3.2", MemberEpoch: 4, Subscribed: []string{"jobs"},
		Assignment: []kafka.TopicPartitions{{Topic: "jobs", Partitions: []int32{1, 2}}}}
	part := func(p int32, start int64, owners ...*kafka.Member) kafka.PartitionOffsets {
		end := 120 + 20*n
		po := kafka.PartitionOffsets{Topic: "jobs", Partition: p, Committed: start, LeaderEpoch: 0, LogStart: 0, LogEnd: end, Lag: end - start}
		var ids []string
		for _, o := range owners {
			ids = append(ids, o.MemberID)
		}
		po.SetOwner(owners[0].MemberID, owners[0].ClientID, owners[0].Host, ids)
		return po
	}
	return kafka.Group{
		Name: "share-jobs", Type: kafka.TypeShare, State: kafka.StateStable, Assignor: "simple",
		GroupEpoch: 7, AssignmentEpoch: 7, Coordinator: kafka.Broker{ID: 2, Host: "kafka-2.internal", Port: 9092}, OffsetsPartition: 12,
		Members:    []kafka.Member{a, b},
		Partitions: []kafka.PartitionOffsets{part(0, 100+20*n, &a), part(1, 100+20*n, &a, &b), part(2, 100, &b)},
		Share:      &kafka.ShareInfo{LagSource: kafka.ShareLagBroker},
	}
}

// shareSteps are viewtest.Evolving's polls with share-jobs added.
func shareSteps() []func(time.Time) (*kafka.Snapshot, error) {
	var steps []func(time.Time) (*kafka.Snapshot, error)
	for i := range warmPolls {
		steps = append(steps, func(time.Time) (*kafka.Snapshot, error) {
			s := viewtest.Evolving(i)
			s.Groups = append(s.Groups, shareGroup(i))
			sort.Slice(s.Groups, func(a, b int) bool { return s.Groups[a].Name < s.Groups[b].Name })
			return s, nil
		})
	}
	return steps
}

// openShare is the keys that open share-jobs from the groups screen.
var openShare = []string{"/", "s", "h", "a", "r", "e", "-", "j", "enter", "enter"}

func TestGoldenShare(t *testing.T) {
	screens := []struct {
		name string
		keys []string
	}{
		{"share_groups", nil},
		{"share_partitions", openShare},
		{"share_members", append(append([]string(nil), openShare...), "tab")},
		{"share_chart", append(append([]string(nil), openShare...), "tab", "tab")},
		{"share_simulate", append(append([]string(nil), openShare...), "shift+tab", "shift+tab")},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, sc := range screens {
			name := sc.name + "_" + itoa(size[0]) + "x" + itoa(size[1])
			t.Run(name, func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Options{}, shareSteps()...)
				h.warm()
				h.press(sc.keys...)
				golden.RequireEqual(t, []byte(h.view()))
			})
		}
	}
}

// TestShareGroupScreens drives the root model through a share group: it is
// listed with its type, its group screen shows start offsets and every
// owner, its verdict is judged on the start offset (jobs/2 stalled), and
// the Simulate tab says why there is nothing to simulate.
func TestShareGroupScreens(t *testing.T) {
	h := newHarness(t, 160, 40, Options{}, shareSteps()...)
	h.warm()
	groups := h.view()
	line := ""
	for _, l := range strings.Split(groups, "\n") {
		if strings.Contains(l, "share-jobs") {
			line = l
		}
	}
	if !strings.Contains(line, " share ") || !strings.Contains(line, "STALL") {
		t.Errorf("groups screen row %q lacks the type share and the verdict STALL:\n%s", line, groups)
	}
	h.press(openShare...)
	parts := h.view()
	for _, want := range []string{"START", "MEMBERS", "share-member-a,share-member-b", "STALL"} {
		if !strings.Contains(parts, want) {
			t.Errorf("partitions tab lacks %q:\n%s", want, parts)
		}
	}
	if strings.Contains(parts, "COMMITTED") {
		t.Errorf("partitions tab of a share group says COMMITTED:\n%s", parts)
	}
	h.press("tab")
	members := h.view()
	// Each member's lag counts every partition it is assigned, the
	// shared jobs/1 (20) for both: a 20+20, b 20+240.
	for _, want := range []string{"share-member-a", "share-member-b", "jobs(0,1)", "jobs(1,2)"} {
		if !strings.Contains(members, want) {
			t.Errorf("members tab lacks %q:\n%s", want, members)
		}
	}
	for _, l := range strings.Split(members, "\n") {
		for id, lag := range map[string]string{"share-member-a": " 40 ", "share-member-b": " 260 "} {
			if strings.Contains(l, id+" ") && strings.Contains(l, "jobs(") && !strings.Contains(l, lag) {
				t.Errorf("member %s row %q lacks lag%s", id, l, lag)
			}
		}
	}
	h.press("tab")
	if chart := h.view(); !strings.Contains(chart, "jobs") {
		t.Errorf("chart tab lacks the partitions:\n%s", chart)
	}
	h.press("tab", "tab")
	sim := h.view()
	if !strings.Contains(sim, "Simulate is not available for this group") || !strings.Contains(sim, "there is no client assignor to simulate") {
		t.Errorf("simulate tab does not say why:\n%s", sim)
	}
}

// TestShareGroupRemoveRefused: X on a share group's Members tab sends
// nothing and says why, naming the group's type.
func TestShareGroupRemoveRefused(t *testing.T) {
	h := newHarness(t, 160, 40, Options{}, shareSteps()...)
	h.warm()
	h.press(openShare...)
	h.press("tab", "X")
	v := h.view()
	if !strings.Contains(v, `group "share-jobs" is a share group: rebalance is not available for share groups`) {
		t.Errorf("X on a share group's member does not say why:\n%s", v)
	}
	if strings.Contains(v, "Remove member") || strings.Contains(v, "remove 1 member") {
		t.Errorf("X on a share group opened a removal:\n%s", v)
	}
}
