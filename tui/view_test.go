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
		if got := keepReceipt(text, tt.width, "…"); got != tt.want {
			t.Errorf("width %d: %q\nwant %q", tt.width, got, tt.want)
		}
	}
	if got := keepReceipt("orders changed", 10, "…"); got != "orders changed" {
		t.Errorf("no receipt: %q", got)
	}
}
