package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// repeatBalancer is a custom assignor, as a client could write one, that
// gives its single member `t5[0 1] t7[1 2] t5[4 2]`: topic t5 twice, the
// second time out of order, as librdkafka's cooperative-sticky wrote it
// after a leave.
type repeatBalancer struct{}

func (repeatBalancer) ProtocolName() string { return "repeat" }
func (repeatBalancer) IsCooperative() bool  { return false }
func (repeatBalancer) JoinGroupMetadata(topics []string, _ map[string][]int32, _ int32) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Topics = topics
	return m.AppendTo(nil)
}

func (repeatBalancer) ParseSyncAssignment(b []byte) (map[string][]int32, error) {
	a := kmsg.NewConsumerMemberAssignment()
	if err := a.ReadFrom(b); err != nil {
		return nil, err
	}
	out := map[string][]int32{}
	for _, t := range a.Topics {
		out[t.Topic] = append(out[t.Topic], t.Partitions...)
	}
	return out, nil
}

func (repeatBalancer) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	return repeatPlan{members: members}, map[string]struct{}{"t5": {}, "t7": {}}, nil
}

type repeatPlan struct {
	members []kmsg.JoinGroupResponseMember
}

func (p repeatPlan) Balance(map[string]int32) kgo.IntoSyncAssignment { return p }

func (p repeatPlan) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment {
	var out []kmsg.SyncGroupRequestGroupAssignment
	for i, m := range p.members {
		a := kmsg.NewConsumerMemberAssignment()
		if i == 0 {
			for _, tp := range []struct {
				topic string
				ps    []int32
			}{{"t5", []int32{0, 1}}, {"t7", []int32{1, 2}}, {"t5", []int32{4, 2}}} {
				t := kmsg.NewConsumerMemberAssignmentTopic()
				t.Topic, t.Partitions = tp.topic, tp.ps
				a.Topics = append(a.Topics, t)
			}
		}
		out = append(out, kmsg.SyncGroupRequestGroupAssignment{MemberID: m.MemberID, MemberAssignment: a.AppendTo(nil)})
	}
	return out
}

// TestDescribeMergesRepeatedTopics: a member whose assignment names a
// topic twice is shown, in the table and the JSON, with one entry per
// topic, partitions sorted.
func TestDescribeMergesRepeatedTopics(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t5", 5)
	c.CreateTopic(t, "t7", 3)
	m := c.Join(t, "g-repeat", []string{"t5", "t7"}, kgo.Balancers(repeatBalancer{}), kgo.ClientID("repeat-a"))
	c.WaitStable(t, "g-repeat", 1, 0) // kfake keeps the last t5 entry alone
	id := m.MemberID()
	brokers := strings.Join(c.Addrs, ",")

	code, stdout, stderr := kg(t, "-b", brokers, "describe", "g-repeat", "--members", "--wide")
	expectRun(t, code, stderr, 0, "")
	var host string
	if fields := strings.Fields(strings.Split(stdout, "\n")[1]); len(fields) > 3 {
		host = fields[3]
	}
	idw := max(len(id), len("CONSUMER-ID"))
	pad := func(s string, n int) string { return s + sp(n-len(s)) }
	expectText(t, "members wide", stdout, lines(
		"GROUP     "+pad("CONSUMER-ID", idw)+"  GROUP-INSTANCE-ID  "+pad("HOST", len(host))+"  CLIENT-ID  #PARTITIONS  ASSIGNMENT",
		"g-repeat  "+id+"  -"+sp(16)+"  "+host+"  repeat-a   "+sp(10)+"6  t5(0,1,2,4),t7(1,2)",
	))

	code, stdout, stderr = kg(t, "-b", brokers, "describe", "g-repeat", "--output", "json")
	expectRun(t, code, stderr, 0, "")
	var doc struct {
		Groups []struct {
			Members    []jsonMember `json:"members"`
			Partitions []jsonPart   `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(doc.Groups) != 1 || len(doc.Groups[0].Members) != 1 {
		t.Fatalf("JSON groups %s", dump(doc))
	}
	got := doc.Groups[0].Members[0]
	want := jsonMember{MemberID: id, ClientID: "repeat-a", Host: host, SubscribedTopics: []string{"t5", "t7"},
		Assignment: []jsonTP{{Topic: "t5", Partitions: []int32{0, 1, 2, 4}}, {Topic: "t7", Partitions: []int32{1, 2}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("JSON member\n%s\nwant\n%s", dump(got), dump(want))
	}
	var owned []string
	for _, p := range doc.Groups[0].Partitions {
		if p.MemberID != nil && *p.MemberID == id {
			owned = append(owned, fmt.Sprintf("%s/%d", p.Topic, p.Partition))
		}
	}
	if wantOwned := []string{"t5/0", "t5/1", "t5/2", "t5/4", "t7/1", "t7/2"}; !reflect.DeepEqual(owned, wantOwned) {
		t.Fatalf("JSON partitions owned by the member %v, want %v", owned, wantOwned)
	}
}
