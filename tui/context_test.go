package tui

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestSwitchTakesTheWholeContext: `:ctx` replaces every per-context
// setting with the one Switch returned, in one assignment, so a field
// added to ContextInfo is applied on a switch with no further step. The
// ContextInfo here sets every field, and the test fails when one is left
// zero, so a new field is covered once it is added here.
func TestSwitchTakesTheWholeContext(t *testing.T) {
	staging := &seqPoller{steps: []func(time.Time) (*kafka.Snapshot, error){func(now time.Time) (*kafka.Snapshot, error) {
		s := viewtest.ManyGroups(3)
		s.Time = now
		return s, nil
	}}}
	want := ContextInfo{
		Name:       "staging",
		Brokers:    []string{"stg-1:9092", "stg-2:9092"},
		Connection: []string{"--context", "staging"},
		Refresh:    7 * time.Second,
		Timeout:    8 * time.Second,
		ReadOnly:   true,
		Protected:  true,
		Writers:    Writers{Reset: &fakeReset{}, Members: &fakeRemover{}},
		Diagnosis:  &fixedReads{},
	}
	v := reflect.ValueOf(want)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("ContextInfo.%s is zero here: set it, so that the test checks a switch takes it", v.Type().Field(i).Name)
		}
	}
	h := newHarness(t, 80, 24, Options{
		Contexts: []string{"prod", "staging"},
		Switch: func(context.Context, string) (Poller, ContextInfo, error) {
			return staging, want, nil
		},
	})
	staging.clock = h.clock
	h.poll()
	h.press(":")
	h.typeText("ctx staging")
	connect := h.send(keyMsg("enter"))
	h.run(h.send(connect()))
	if !reflect.DeepEqual(h.m.opts.ContextInfo, want) {
		t.Fatalf("after :ctx staging the UI holds %+v\nwant %+v", h.m.opts.ContextInfo, want)
	}
	if !h.m.base.ReadOnly || !h.m.base.Protected {
		t.Fatalf("the screens' common context: read-only %v protected %v, want both", h.m.base.ReadOnly, h.m.base.Protected)
	}

	// A Switch that leaves Refresh and Timeout zero keeps the current ones.
	keep := want
	keep.Name, keep.Refresh, keep.Timeout = "prod", 0, 0
	h.m.opts.Switch = func(context.Context, string) (Poller, ContextInfo, error) { return staging, keep, nil }
	h.press(":")
	h.typeText("ctx prod")
	connect = h.send(keyMsg("enter"))
	h.run(h.send(connect()))
	keep.Refresh, keep.Timeout = want.Refresh, want.Timeout
	if !reflect.DeepEqual(h.m.opts.ContextInfo, keep) {
		t.Fatalf("after :ctx prod the UI holds %+v\nwant %+v", h.m.opts.ContextInfo, keep)
	}
}
