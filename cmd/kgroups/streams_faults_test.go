package main

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// TestStreamsWritesUnknownWhenTheReReadFails: a streams group's reset and
// delete-offsets whose request is lost (dropped, never applied) and whose
// re-read fails, with GROUP_ID_NOT_FOUND or a partition's
// TOPIC_AUTHORIZATION_FAILED, end in exit 4 with the receipt, never in
// "verified", and the commits are as they were.
func TestStreamsWritesUnknownWhenTheReReadFails(t *testing.T) {
	for _, write := range []struct {
		name string
		key  kmsg.Key
		args []string
	}{
		{"reset", kmsg.OffsetCommit, []string{"reset", streamsGroup, "--to-earliest", "--topic", "orders:0,2"}},
		{"delete-offsets", kmsg.OffsetDelete, []string{"delete-offsets", streamsGroup, "--topic", "orders:0,2"}},
	} {
		for _, fault := range []struct {
			name  string
			fault kfake.Fault
		}{
			{"GROUP_ID_NOT_FOUND", kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetFetch}, Group: streamsGroup, Err: kerr.GroupIDNotFound}},
			{"TOPIC_AUTHORIZATION_FAILED", kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetFetch}, Topic: "orders", Err: kerr.TopicAuthorizationFailed}},
		} {
			t.Run(write.name+" "+fault.name, func(t *testing.T) {
				c := startStreamsCluster(t, kafka.StateEmpty)
				before := c.committedOffsets(t, streamsGroup)
				var armed atomic.Bool
				c.ControlKey(int16(write.key), func(kmsg.Request) (kmsg.Response, error, bool) {
					c.KeepControl()
					armed.Store(true)
					return nil, errors.New("dropped by the test"), true
				})
				f := fault.fault
				f.Count, f.When = -1, func(kmsg.Request) bool { return armed.Load() }
				h := c.Fault(f)
				code, out, stderr := c.kg(t, append(write.args, "--execute", "--timeout", "2s")...)
				armed.Store(false)
				h.Remove()
				path := receiptPath(t, stderr)
				want := "kgroups: 2 of 2 partitions with an outcome unknown; see STATUS above. Check what the group holds now with: kgroups -b " + c.brokers + " describe " + streamsGroup + " (the receipt of this change: " + path + ")\n"
				if code != exitUnknown || !strings.HasSuffix(stderr, want) || strings.Contains(out, "verified") || strings.Contains(out, " ok\n") {
					t.Fatalf("exit %d\nstdout %s\nstderr %s\nwant suffix %s", code, out, stderr, want)
				}
				if after := c.committedOffsets(t, streamsGroup); fmt.Sprint(after) != fmt.Sprint(before) {
					t.Errorf("commits changed: %v, were %v", after, before)
				}
			})
		}
	}
}
