package reset

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// TestRecentResets reads back the resets and undos written from a time on,
// oldest first, and nothing else: older receipts, deletions, member
// removals, edited receipts, another cluster's receipts and stray files
// are left out.
func TestRecentResets(t *testing.T) {
	dir := t.TempDir()
	since := time.Date(2026, 11, 30, 15, 30, 0, 0, time.UTC)
	seven, forty := int64(7), int64(40)
	write := func(action string, at time.Time, group string) string {
		t.Helper()
		r := &Receipt{Header: receipt.Header{Version: receipt.Version, Action: action, Cluster: []string{"b:9092"}, Group: group, Time: at, User: "u"},
			Scenario: "--to-earliest", Scope: "--all-topics",
			Offsets: []ReceiptOffset{{Topic: "t", Partition: 0, Before: &forty, After: &seven}, {Topic: "t", Partition: 1, Before: nil, After: &seven}}}
		path, err := WriteReceipt(dir, r)
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(receipt.ActionReset, since.Add(-time.Millisecond), "old")
	reset := write(receipt.ActionReset, since, "g")
	write(receipt.ActionDeleteGroup, since.Add(time.Second), "g")
	undo := write(receipt.ActionUndo, since.Add(2*time.Second), "h")
	edited := write(receipt.ActionReset, since.Add(3*time.Second), "g")
	if err := os.WriteFile(edited, []byte(`{"version":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "20261130T160000.000Z-reset-notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := &Receipt{Header: receipt.Header{Version: receipt.Version, Action: receipt.ActionReset, Cluster: []string{"elsewhere:9092"}, Group: "g", Time: since, User: "u"},
		Scenario: "--to-earliest", Scope: "--all-topics", Offsets: []ReceiptOffset{{Topic: "t", Partition: 0, Before: &forty, After: &seven}}}
	if _, err := WriteReceipt(dir, other); err != nil {
		t.Fatal(err)
	}
	rs, err := RecentResets(context.Background(), dir, []string{"B:9092", "c:9092"}, since)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.Group+" "+r.Path)
	}
	if want := []string{"g " + reset, "h " + undo}; !reflect.DeepEqual(got, want) {
		t.Fatalf("RecentResets = %q, want %q", got, want)
	}
	want := lag.Reset{Time: since, Receipt: reset, Offsets: []lag.ResetOffset{{Topic: "t", Partition: 0, Before: 40, After: 7}, {Topic: "t", Partition: 1, Before: kafka.NoOffset, After: 7}}}
	if got := rs[0].LagReset(); !reflect.DeepEqual(got, want) {
		t.Fatalf("LagReset = %+v, want %+v", got, want)
	}
	if rs, err := RecentResets(context.Background(), dir, nil, since); err != nil || len(rs) != 3 {
		t.Fatalf("every cluster: %d receipts, %v; want 3", len(rs), err)
	}
	if rs, err := RecentResets(context.Background(), filepath.Join(dir, "none"), nil, since); rs != nil || err != nil {
		t.Fatalf("a missing folder: %v, %v", rs, err)
	}
}
