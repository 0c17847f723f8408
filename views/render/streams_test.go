package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestStreamsHostileStrings: broker strings of a streams group (process,
// endpoint, client tags, topics, subtopology ids) reach the terminal
// sanitized in every view, and JSON keeps their exact bytes.
func TestStreamsHostileStrings(t *testing.T) {
	const evil = "p\x1b[31mred\x07"
	g := &kafka.Group{Name: "g\x1b]0;title\x07", Type: kafka.TypeStreams, State: kafka.StateStable,
		Members: []kafka.Member{{MemberID: "m\x1b[2J"}},
		Streams: &kafka.StreamsInfo{GroupEpoch: 1, TargetAssignmentEpoch: 1, TopologyEpoch: 1,
			Subtopologies: []kafka.Subtopology{{ID: "0\x1b[1m", SourceTopics: []string{"t\x1b[K"}}},
			Members: []kafka.StreamsMember{{MemberID: "m\x1b[2J", ProcessID: evil, ClientID: evil, Host: evil, Rack: evil,
				UserEndpoint: evil + ":1", ClientTags: []kafka.ClientTag{{Key: evil, Value: evil}},
				Tasks: kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0\x1b[1m", Partitions: []int32{0}}}}}},
		},
		Partitions: []kafka.PartitionOffsets{{Topic: "t\x1b[K", Committed: 1, LogEnd: 2, Lag: 1, LogStart: 0, LeaderEpoch: -1}},
	}
	for _, view := range []View{Offsets, Members, State, Topology} {
		var out, errOut bytes.Buffer
		if err := Describe(&out, &errOut, []*kafka.Group{g}, DescribeOptions{View: view, Wide: true}); err != nil {
			t.Fatal(err)
		}
		if s := out.String() + errOut.String(); strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("view %d printed a control character:\n%q", view, s)
		}
	}
	var out bytes.Buffer
	if err := JSON(&out, []*kafka.Group{g}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Groups []struct {
			Members []struct {
				ProcessID string `json:"processId"`
				Tasks     struct {
					Active []struct {
						Subtopology string `json:"subtopology"`
					} `json:"active"`
				} `json:"tasks"`
			} `json:"members"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if m := doc.Groups[0].Members[0]; m.ProcessID != evil || m.Tasks.Active[0].Subtopology != "0\x1b[1m" {
		t.Errorf("JSON changed the bytes: %+v", m)
	}
}
