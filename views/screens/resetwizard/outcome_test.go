package resetwizard

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/reset"
)

// lostRead applies for real, then reports that the re-read of orders/1
// failed, as a broken connection would.
type lostRead struct{ *counting }

func (l lostRead) Apply(ctx context.Context, p *reset.Plan) (*reset.Result, error) {
	res, err := l.counting.Apply(ctx, p)
	if err == nil {
		for i := range res.Partitions {
			if res.Partitions[i].Partition == 1 {
				res.Partitions[i].Got, res.Partitions[i].ReadErr = -1, errors.New("connection reset by peer")
			}
		}
	}
	return res, err
}

func applyToOffset12(t *testing.T, m *Model) {
	t.Helper()
	press(m, "down", "down", "down", "enter")
	typeText(m, "12")
	press(m, "enter", "enter", "y")
	if m.step != stepResult {
		t.Fatalf("step %d, want the result", m.step)
	}
}

func TestWizardShowsRefused(t *testing.T) {
	f := newFixture(t)
	f.c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Topic: "orders", Partitions: []int32{1}, Err: kerr.UnknownMemberID})
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	applyToOffset12(t, m)
	mustContain(t, m, "✖ 1 of 2 partitions refused by the broker (they keep their offset): see STATUS.",
		"orders         0         10               5            10 ok",
		"orders         1         12              10            10 refused: commit: UNKNOWN_MEMBER_ID")
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 10, "orders/1": 10}) {
		t.Fatalf("commits = %v", got)
	}
}

func TestWizardShowsUnknown(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, false), lostRead{f.backend}, "g")
	applyToOffset12(t, m)
	mustContain(t, m, "✖ Of 2 partitions, 1 with an outcome unknown: see STATUS. Check what the group holds now on the group screen, or run\nkgroups describe g.",
		"orders         1         12              10             - outcome unknown: the re-read failed: connection reset by pe…",
		"Receipt: "+f.dir)
}
