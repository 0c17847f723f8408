package rebalance

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// replayBalancer is a group member that joins with the join metadata a real
// client recorded (testdata/<library>), byte for byte, under the recorded
// client id; as leader it hands out the recorded assignments, the k-th
// member by id the k-th recorded one. kgroups then reads the group from a
// broker exactly as it would read that client's group.
type replayBalancer struct {
	protocol string
	metadata []byte
	plan     [][]byte // recorded assignments, in recorded member id order
}

func (b *replayBalancer) ProtocolName() string { return b.protocol }
func (b *replayBalancer) IsCooperative() bool  { return false }
func (b *replayBalancer) JoinGroupMetadata([]string, map[string][]int32, int32) []byte {
	return slices.Clone(b.metadata)
}

func (b *replayBalancer) ParseSyncAssignment(assignment []byte) (map[string][]int32, error) {
	a := kmsg.NewConsumerMemberAssignment()
	if err := a.ReadFrom(assignment); err != nil {
		return nil, err
	}
	out := map[string][]int32{}
	for _, tp := range a.Topics {
		out[tp.Topic] = append(out[tp.Topic], tp.Partitions...)
	}
	return out, nil
}

func (b *replayBalancer) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	ids := make([]string, len(members))
	topics := map[string]struct{}{}
	for i, m := range members {
		ids[i] = m.MemberID
		meta, _, err := kafka.ReadMemberMetadata(m.ProtocolMetadata)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range meta.Topics {
			topics[t] = struct{}{}
		}
	}
	slices.Sort(ids)
	return replayPlan{ids: ids, plan: b.plan}, topics, nil
}

type replayPlan struct {
	ids  []string
	plan [][]byte
}

func (p replayPlan) Balance(map[string]int32) kgo.IntoSyncAssignment { return p }

func (p replayPlan) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment {
	out := make([]kmsg.SyncGroupRequestGroupAssignment, len(p.ids))
	for i, id := range p.ids {
		out[i] = kmsg.SyncGroupRequestGroupAssignment{MemberID: id, MemberAssignment: p.plan[i%len(p.plan)]}
	}
	return out
}

// TestPollKeepsRecordedJoinMetadata replays recorded kafka-go groups whose
// members were given another library's default client id (sarama's
// "sarama", the Java client's "consumer-<group>-N") into a kfake cluster:
// kgroups' poll must keep each member's join metadata as sent (kafka-go's
// version 1, cut short before the owned partitions), so that the metadata,
// not the client id, identifies kafka-go, and no simulate row is exact.
// The poll used to re-encode the metadata in full, which made these groups
// sarama's and Java's, with exact rows that the recordings show wrong.
func TestPollKeepsRecordedJoinMetadata(t *testing.T) {
	c := kafkatest.NewCluster(t)
	for topic, n := range map[string]int32{"t12": 12, "t5": 5, "t7": 7} { // the recordings' topics
		c.CreateTopic(t, topic, n)
	}
	cl := c.Client(t)
	for _, name := range []string{"kafka-go/range-saramaid-leave.json", "kafka-go/roundrobin-javaid-leave.json"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			f := new(recorded)
			if err := json.Unmarshal(b, f); err != nil {
				t.Fatal(err)
			}
			before := slices.Clone(f.Before)
			slices.SortFunc(before, func(a, b rdkMember) int { return strings.Compare(a.MemberID, b.MemberID) })
			var plan [][]byte
			for _, m := range before {
				plan = append(plan, m.Assignment)
			}
			for _, m := range before {
				if _, truncated, err := kafka.ReadMemberMetadata(m.Metadata); err != nil || !truncated {
					t.Fatalf("recorded member %s: metadata truncated %v, %v; want kafka-go's truncated version 1", m.MemberID, truncated, err)
				}
				member, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.ClientID(m.ClientID),
					kgo.ConsumerGroup(f.Group), kgo.ConsumeTopics(slices.Sorted(maps.Keys(f.Partitions))...),
					kgo.Balancers(&replayBalancer{protocol: f.Protocol, metadata: m.Metadata, plan: plan}),
					kgo.HeartbeatInterval(100*time.Millisecond))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(member.Close)
				ctx := t.Context()
				go func() {
					for ctx.Err() == nil {
						if member.PollFetches(ctx).IsClientClosed() {
							return
						}
					}
				}()
			}
			g := settledGroup(t, cl, f.Group, len(before), 24)
			var got, want []string
			for _, m := range g.Members {
				got = append(got, string(m.JoinMetadata))
			}
			for _, m := range before {
				want = append(want, string(m.Metadata))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("the poll's join metadata differs from what the members sent:\n%q\nwant\n%q", got, want)
			}
			id := Identify(g)
			if id.Impl != ImplKafkaGo {
				t.Fatalf("identified %s %q, want kafka-go", id.Impl, id.Label())
			}
			sim, err := Simulate(g, f.Partitions, Change{Leave: []string{g.Members[0].MemberID}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range sim.Predictions {
				if p.Confidence == ConfidenceExact {
					t.Errorf("%s row (%s) is exact: %s", p.Assignor, p.Impl, p.Note)
				}
			}
		})
	}
}
