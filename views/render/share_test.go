package render

import (
	"bytes"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestShareLagSourceNote: describe says on stderr when a share group's lag
// was computed from the log end, and says nothing when the broker gave it.
func TestShareLagSourceNote(t *testing.T) {
	g := &kafka.Group{Name: "share-jobs", Type: kafka.TypeShare, State: kafka.StateEmpty, Share: &kafka.ShareInfo{LagSource: kafka.ShareLagLogEnd},
		Partitions: []kafka.PartitionOffsets{{Topic: "jobs", Partition: 0, Committed: 10, LogStart: 0, LogEnd: 14, Lag: 4}}}
	var out, errOut bytes.Buffer
	if err := Describe(&out, &errOut, []*kafka.Group{g}, DescribeOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "GROUP       TOPIC  PARTITION  START-OFFSET  LAG\nshare-jobs  jobs           0            10    4\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if want := "Share group 'share-jobs' has no active members.\nNote: share group 'share-jobs': LAG is log end - start offset (the broker has no DescribeShareGroupOffsets v1 lag).\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
	g.Share.LagSource, g.State = kafka.ShareLagBroker, kafka.StateStable
	out.Reset()
	errOut.Reset()
	if err := Describe(&out, &errOut, []*kafka.Group{g}, DescribeOptions{}); err != nil || errOut.Len() != 0 {
		t.Errorf("broker lag, Stable: err %v stderr %q, want nothing", err, errOut.String())
	}
}
