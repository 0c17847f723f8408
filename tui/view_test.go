package tui

import "testing"

// TestFooterKeepsTheReceipt: a message that ends with its receipt keeps
// the whole path at any width it fits in, cutting the words before it.
func TestFooterKeepsTheReceipt(t *testing.T) {
	path := "/home/oncall/.local/state/kgroups/receipts/2026-12-02T03-14-15Z-reset-payments-settlement-eu-west.json"
	text := "payments-settlement-eu-west-consumer-group-v2 changed; receipt " + path
	for _, tt := range []struct {
		width int
		want  string
	}{
		{200, text},
		{130, "payments-settleme…; receipt " + path},
		{120, "payment…; receipt " + path},
		{119, "receipt " + path},
	} {
		if got := keepReceipt(text, tt.width, "…", ""); got != tt.want {
			t.Errorf("width %d: %q\nwant %q", tt.width, got, tt.want)
		}
	}
	// Narrower still (an 80-column terminal), the home folder is
	// written ~, which a shell expands when the path is pasted.
	short := "~/.local/state/kgroups/receipts/2026-12-02T03-14-15Z-reset-payments-settlement-eu-west.json"
	for _, tt := range []struct {
		width int
		home  string
		want  string
	}{
		{110, "/home/oncall", "receipt " + path},
		{109, "/home/oncall", "receipt " + short},
		{99, "/home/oncall/", "receipt " + short},
		{98, "/home/oncall", short},
		{91, "/home/oncall", short},
		{90, "/home/oncall", "receipt " + path},
		{98, "/home/on", "receipt " + path},
		{98, "", "receipt " + path},
	} {
		if got := keepReceipt(text, tt.width, "…", tt.home); got != tt.want {
			t.Errorf("width %d, home %q: %q\nwant %q", tt.width, tt.home, got, tt.want)
		}
	}
	if got := keepReceipt("orders changed", 10, "…", ""); got != "orders changed" {
		t.Errorf("no receipt: %q", got)
	}
}
