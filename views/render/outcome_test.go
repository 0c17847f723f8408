package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
)

func TestRemovalResultsSayTheOutcome(t *testing.T) {
	target := func(id string) rebalance.Target {
		return rebalance.Target{Member: kafka.Member{MemberID: id}, Method: rebalance.ByMemberID}
	}
	var b bytes.Buffer
	err := RemovalResults(&b, []rebalance.Result{
		{Target: target("m1"), Gone: true},
		{Target: target("m2"), Err: context.DeadlineExceeded, Gone: true},
		{Target: target("m3"), Err: kerr.UnknownMemberID},
		{Target: target("m4"), Err: context.DeadlineExceeded},
		{Target: target("m5"), ReadErr: errors.New("connection reset")},
	}, Layout{})
	if err != nil {
		t.Fatal(err)
	}
	want := `
MEMBER-ID  INSTANCE-ID  RESULT
m1         -            removed
m2         -            removed (answer lost)
m3         -            refused
m4         -            outcome unknown
m5         -            outcome unknown
Result for m2: verified removed (the broker's answer was lost: context deadline exceeded)
Broker's answer for m3: UNKNOWN_MEMBER_ID: The coordinator is not aware of this member.
Result for m4: outcome unknown: no answer (context deadline exceeded); the member is still in the group, and the request may still land
Result for m5: outcome unknown: the re-read failed: connection reset
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestPlanJSONSaysTheOutcome(t *testing.T) {
	p := &reset.Plan{Group: "g", Exists: true, State: "Empty", Rows: []reset.Row{
		{Topic: "t", Partition: 0, Current: 5, New: 0},
		{Topic: "t", Partition: 1, Current: 5, New: 0},
	}}
	seven := int64(7)
	res := &reset.Result{Group: "g", ReceiptPath: "/r", Partitions: []reset.PartitionResult{
		{Topic: "t", Partition: 0, Before: 5, Want: 0, Got: 0, Err: context.DeadlineExceeded},
		{Topic: "t", Partition: 1, Before: 5, Want: 0, Got: 0, Changed: &seven},
	}}
	var b bytes.Buffer
	if err := PlanJSON(&b, p, false, nil, res); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Result struct {
			OK         bool   `json:"ok"`
			Outcome    string `json:"outcome"`
			Partitions []struct {
				OK      bool    `json:"ok"`
				Outcome string  `json:"outcome"`
				Error   *string `json:"error"`
			} `json:"partitions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Result
	if r.OK || r.Outcome != "changedAfter" || len(r.Partitions) != 2 {
		t.Fatalf("result %+v", r)
	}
	if p0 := r.Partitions[0]; !p0.OK || p0.Outcome != "verified" || p0.Error == nil || *p0.Error != "verified (the broker's answer was lost: context deadline exceeded)" {
		t.Errorf("partition 0: %+v", p0)
	}
	if p1 := r.Partitions[1]; p1.OK || p1.Outcome != "changedAfter" || p1.Error == nil || *p1.Error != "changed by another writer after ours (now 7)" {
		t.Errorf("partition 1: %+v", p1)
	}
}
