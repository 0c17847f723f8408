package rebalance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// clientFixture is one recorded membership change in a group of real
// consumers of one client library (or, in testdata/mixed, of two), as the
// coordinator reported it with DescribeGroups before and after the change.
// Its fields are those of rdkFixture, with the library and its versions
// named instead of librdkafka's and kcat's; each library's
// testdata/<library>/README.md says how its files were captured.
type clientFixture struct {
	Library  string            `json:"library"`
	Versions map[string]string `json:"versions"`
	Group    string            `json:"group"`
	Protocol string            `json:"protocol"`
	// ClientIDs is "default" when every member kept its library's default
	// client id, otherwise the pattern they were given
	// ("consumer-billing-N").
	ClientIDs string `json:"client_ids"`
	// Static reports that every member set group.instance.id.
	Static     bool             `json:"static,omitempty"`
	Partitions map[string]int32 `json:"partitions"`
	Join       string           `json:"join,omitempty"`
	Leave      string           `json:"leave,omitempty"`
	Before     []rdkMember      `json:"before"`
	After      []rdkMember      `json:"after"`
	// Leader is what the leader's assignor was given in the round that
	// produced After, where the capture program could record it (sarama,
	// kafka-go and kafka-python leaders): the member ids and each topic's
	// partitions in the order the library handed them over.
	Leader *leaderInput `json:"leader,omitempty"`
}

// leaderInput is an assignor's recorded input.
type leaderInput struct {
	Members    []string           `json:"members"`
	Topics     []string           `json:"topics"`
	Partitions map[string][]int32 `json:"partitions"`
}

// loadClientFixtures reads every fixture in testdata/dir, by file name.
func loadClientFixtures(t *testing.T, dir string) map[string]*clientFixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no fixtures in testdata/%s", dir)
	}
	out := make(map[string]*clientFixture, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := new(clientFixture)
		if err := json.Unmarshal(b, f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = f
	}
	return out
}

// changed returns the members after the change as a model sees them: the
// members before, less the one that left, each owning what it was
// assigned, and the one that joined, owning nothing.
func (f *clientFixture) changed(t *testing.T) []simMember {
	t.Helper()
	var members []simMember
	for _, m := range f.Before {
		if m.MemberID != f.Leave {
			members = append(members, clientSimMember(t, m, false))
		}
	}
	if f.Join != "" {
		i := slices.IndexFunc(f.After, func(m rdkMember) bool { return m.MemberID == f.Join })
		if i < 0 {
			t.Fatalf("joiner %s not in the group after", f.Join)
		}
		members = append(members, clientSimMember(t, f.After[i], true))
	}
	if len(members) != len(f.After) {
		t.Fatalf("%d members after the change, the group reported %d", len(members), len(f.After))
	}
	return members
}

// recorded is the assignment After holds, by member id, checked against
// the raw assignment bytes.
func (f *clientFixture) recorded(t *testing.T) map[string]map[string][]int32 {
	t.Helper()
	out := map[string]map[string][]int32{}
	for _, m := range f.After {
		raw := decodeAssignment(t, m)
		if !equalPlans(map[string]map[string][]int32{"": raw}, map[string]map[string][]int32{"": m.Assigned}) {
			t.Fatalf("member %s: assignment bytes %v disagree with assigned %v", m.MemberID, raw, m.Assigned)
		}
		out[m.MemberID] = m.Assigned
	}
	return out
}

// decodeAssignment reads a recorded member's ConsumerMemberAssignment
// bytes, merging a topic listed more than once.
func decodeAssignment(t *testing.T, m rdkMember) map[string][]int32 {
	t.Helper()
	a := kmsg.NewConsumerMemberAssignment()
	if err := a.ReadFrom(m.Assignment); err != nil {
		t.Fatalf("member %s assignment: %v", m.MemberID, err)
	}
	raw := map[string][]int32{}
	for _, tps := range a.Topics {
		raw[tps.Topic] = append(raw[tps.Topic], tps.Partitions...)
	}
	return raw
}

// equalPlans compares two assignments, ignoring partition order and empty
// topics.
func equalPlans(a, b map[string]map[string][]int32) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

// clientSimMember is rdkSimMember for any client: its subscription read
// as ReadMemberMetadata reads it.
func clientSimMember(t *testing.T, m rdkMember, joiner bool) simMember {
	t.Helper()
	meta, _, err := ReadMemberMetadata(m.Metadata)
	if err != nil {
		t.Fatalf("member %s metadata: %v", m.MemberID, err)
	}
	sm := simMember{id: m.MemberID, instance: m.InstanceID, topics: uniqueSorted(meta.Topics), joiner: joiner}
	if !joiner && len(m.Assigned) > 0 {
		sm.owned = m.Assigned
	}
	return sm
}
