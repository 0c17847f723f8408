package kafka

import (
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestMergeAssignment(t *testing.T) {
	in := []TopicPartitions{{"t7", []int32{2, 1}}, {"t5", []int32{0, 1}}, {"t5", []int32{4, 2, 1}}, {"t9", []int32{}}}
	want := []TopicPartitions{{"t5", []int32{0, 1, 2, 4}}, {"t7", []int32{1, 2}}, {"t9", []int32{}}}
	got := MergeAssignment(in)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("MergeAssignment = %v, want %v", got, want)
	}
	if in[1].Partitions[1] != 1 || in[0].Partitions[0] != 2 {
		t.Fatalf("the input was changed: %v", in)
	}
	if MergeAssignment(nil) != nil {
		t.Fatal("nothing merged is not nil")
	}
}

// TestResolveAssignmentMerges: a KIP-848 answer naming one topic by name
// and once more by id only gives one entry.
func TestResolveAssignmentMerges(t *testing.T) {
	var id [16]byte
	id[0] = 7
	byName := kmsg.NewAssignmentTopicPartition()
	byName.Topic, byName.Partitions = "t5", []int32{3, 1}
	byID := kmsg.NewAssignmentTopicPartition()
	byID.TopicID, byID.Partitions = id, []int32{0, 1}
	got := resolveAssignment([]kmsg.AssignmentTopicPartition{byName, byID}, map[kadm.TopicID]string{kadm.TopicID(id): "t5"}, nil)
	want := []TopicPartitions{{"t5", []int32{0, 1, 3}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("resolveAssignment = %v, want %v", got, want)
	}
}
