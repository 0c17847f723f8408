package main

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Exit codes under faults: 0 when every write was verified (even when the
// broker's answer was lost), 1 when the broker refused some, 4 when any
// outcome is unknown (also when others were refused).

// faultTimeout is the request timeout the commands run with here.
const faultTimeout = 2 * time.Second

// independentCommits reads a group's commits with a kadm client of its own.
func independentCommits(t *testing.T, rc *resetCluster, group string) map[string]int64 {
	t.Helper()
	kc, err := kgo.NewClient(kgo.SeedBrokers(rc.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := kadm.NewClient(kc).FetchOffsets(ctx, group)
	if err != nil {
		t.Fatalf("independent re-read: %v", err)
	}
	out := make(map[string]int64)
	resp.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			out[o.Topic+"/"+strconv.Itoa(int(o.Partition))] = o.At
		}
	})
	return out
}

func TestResetExitCodesUnderFaults(t *testing.T) {
	t.Run("verified though the answer was lost: exit 0", func(t *testing.T) {
		rc := startResetCluster(t)
		t.Setenv("KGROUPS_TIMEOUT", faultTimeout.String())
		var n atomic.Int32
		rc.ControlKey(int16(kmsg.OffsetCommit), func(kmsg.Request) (kmsg.Response, error, bool) {
			if n.Add(1) == 1 {
				time.Sleep(faultTimeout + time.Second)
			}
			return nil, nil, false
		})
		code, stdout, stderr := rc.kg(t, "reset", "g", "--to-offset", "2", "--topic", "orders:0", "--execute")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		// The client gives up at its deadline or at its read timeout,
		// whichever comes first: both are a lost answer.
		lost := regexp.MustCompile(`^GROUP  TOPIC   PARTITION  NEW-OFFSET  PREVIOUS-OFFSET  COMMITTED-NOW  STATUS
g      orders          0           2                5              2  verified \(the broker's answer was lost: commit: (context deadline exceeded|read tcp \S+: i/o timeout)\)
$`)
		if !lost.MatchString(stdout) {
			t.Errorf("stdout:\n%s", stdout)
		}
		if got := independentCommits(t, rc, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 2, "orders/1": 10}) {
			t.Errorf("independent re-read = %v", got)
		}
	})

	t.Run("refused: exit 1", func(t *testing.T) {
		rc := startResetCluster(t)
		t.Setenv("KGROUPS_TIMEOUT", faultTimeout.String())
		rc.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Topic: "orders", Partitions: []int32{1}, Err: kerr.UnknownMemberID})
		code, stdout, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders", "--execute")
		if code != 1 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stdout, "refused: commit: UNKNOWN_MEMBER_ID: The coordinator is not aware of this member. (the group has live members again)") {
			t.Errorf("stdout:\n%s", stdout)
		}
		if !strings.HasSuffix(stderr, "kgroups: 1 of 3 partitions refused by the broker; see STATUS above\n") {
			t.Errorf("stderr:\n%s", stderr)
		}
		if got := independentCommits(t, rc, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 10, "orders/2": 0}) {
			t.Errorf("independent re-read = %v", got)
		}
	})

	t.Run("unknown and refused: exit 4", func(t *testing.T) {
		rc := startResetCluster(t)
		t.Setenv("KGROUPS_TIMEOUT", faultTimeout.String())
		rc.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Topic: "orders", Partitions: []int32{1}, Err: kerr.UnknownMemberID})
		var committed, done atomic.Bool
		rc.ControlKey(int16(kmsg.OffsetCommit), func(kmsg.Request) (kmsg.Response, error, bool) {
			rc.KeepControl()
			committed.Store(true)
			return nil, nil, false
		})
		rc.ControlKey(int16(kmsg.OffsetFetch), func(kmsg.Request) (kmsg.Response, error, bool) {
			rc.KeepControl()
			if committed.Load() && !done.Load() {
				return nil, errors.New("dropped by the test"), true
			}
			return nil, nil, false
		})
		code, stdout, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders", "--execute")
		done.Store(true)
		if code != 4 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		path := receiptPath(t, stderr)
		want := "kgroups: 1 of 3 partitions refused by the broker, 2 of 3 partitions with an outcome unknown; see STATUS above. " +
			"Check what the group holds now with: kgroups -b " + shellQuote(rc.brokers) + " describe g (the receipt of this change: " + path + ")\n"
		if !strings.HasSuffix(stderr, want) {
			t.Errorf("stderr:\n%s\nwant it to end with\n%s", stderr, want)
		}
		if n := strings.Count(stdout, "outcome unknown: the re-read failed: "); n != 2 || !strings.Contains(stdout, "refused: commit: UNKNOWN_MEMBER_ID") {
			t.Errorf("stdout:\n%s", stdout)
		}
		// What the report could not know, the cluster holds: the two
		// unknown partitions landed, the refused one did not.
		if got := independentCommits(t, rc, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 10, "orders/2": 0}) {
			t.Errorf("independent re-read = %v", got)
		}
	})
}

func TestRebalanceExitCodeUnknown(t *testing.T) {
	rc := startResetCluster(t)
	t.Setenv("KGROUPS_TIMEOUT", faultTimeout.String())
	m := rc.Join(t, "app", []string{"orders"})
	rc.WaitStable(t, "app", 1, 3)
	waitSeen(t, rc.Cluster, "app", 1)
	id := m.MemberID()
	var done atomic.Bool
	rc.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		rc.KeepControl()
		if done.Load() {
			return nil, nil, false
		}
		return nil, errors.New("dropped by the test"), true
	})
	code, stdout, stderr := rc.kg(t, "rebalance", "app", "--member", id, "--execute")
	done.Store(true)
	if code != 4 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "outcome unknown") || !strings.Contains(stdout, "Result for "+id+": outcome unknown: no answer (") {
		t.Errorf("stdout:\n%s", stdout)
	}
	path := receiptPath(t, stdout)
	want := "kgroups: 1 of 1 member with an outcome unknown; see RESULT above. " +
		"Check what the group holds now with: kgroups -b " + shellQuote(rc.brokers) + " describe app (the receipt of this change: " + path + ")\n"
	if !strings.HasSuffix(stderr, want) {
		t.Errorf("stderr:\n%s\nwant it to end with\n%s", stderr, want)
	}
	if gi := rc.GroupInfo("app"); gi == nil || len(gi.Members) != 1 || gi.Members[0].MemberID != id {
		t.Errorf("the member was removed: %+v", gi)
	}
}

func TestDeleteExitCodeUnknown(t *testing.T) {
	rc := startResetCluster(t)
	t.Setenv("KGROUPS_TIMEOUT", faultTimeout.String())
	var done atomic.Bool
	rc.ControlKey(int16(kmsg.DeleteGroups), func(kmsg.Request) (kmsg.Response, error, bool) {
		rc.KeepControl()
		if done.Load() {
			return nil, nil, false
		}
		return nil, errors.New("dropped by the test"), true
	})
	code, stdout, stderr := rc.kg(t, "delete", "g", "--execute")
	done.Store(true)
	if code != 4 || stdout != "" {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.HasPrefix(stderr, `kgroups: delete group "g": outcome unknown: no answer (`) ||
		!strings.Contains(stderr, "the group still exists, and the request may still land. Check with: kgroups -b "+shellQuote(rc.brokers)+" describe g (the receipt of this change: ") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if got := independentCommits(t, rc, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Errorf("independent re-read = %v", got)
	}
}
