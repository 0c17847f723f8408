package rebalance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// rdkFixture is one recorded membership change in a group of real
// librdkafka consumers (kcat), as the coordinator reported it with
// DescribeGroups before and after the change; see
// testdata/librdkafka/README.md for how each was captured.
type rdkFixture struct {
	Librdkafka string           `json:"librdkafka"`
	Kcat       string           `json:"kcat"`
	Group      string           `json:"group"`
	Protocol   string           `json:"protocol"`
	Partitions map[string]int32 `json:"partitions"`
	// Join is the member id of the member that joined, Leave the member id
	// of the member that left; exactly one is set.
	Join   string      `json:"join,omitempty"`
	Leave  string      `json:"leave,omitempty"`
	Before []rdkMember `json:"before"`
	After  []rdkMember `json:"after"`
}

// rdkMember is one member as DescribeGroups reported it.
type rdkMember struct {
	MemberID   string `json:"member_id"`
	InstanceID string `json:"instance_id,omitempty"`
	ClientID   string `json:"client_id"`
	Host       string `json:"host"`
	// Metadata is the member's protocol metadata (ConsumerMemberMetadata)
	// exactly as the broker holds it; Assignment is the raw
	// ConsumerMemberAssignment the leader gave it.
	Metadata   []byte             `json:"metadata"`
	Assignment []byte             `json:"assignment"`
	Assigned   map[string][]int32 `json:"assigned"`
}

const rdkFixtureDir = "testdata/librdkafka"

func loadRdkFixtures(t *testing.T) map[string]*rdkFixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(rdkFixtureDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]*rdkFixture, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := new(rdkFixture)
		if err := json.Unmarshal(b, f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = f
	}
	return out
}
