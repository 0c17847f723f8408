package kafka

import (
	"strings"
	"testing"
	"unsafe"
)

// TestStrTableKeepsTheLatestPoll shows the table handing out the previous
// poll's copy of a string and forgetting strings the latest poll did not
// see.
func TestStrTableKeepsTheLatestPoll(t *testing.T) {
	var tab strTable
	first := strings.Clone("orders")
	in := tab.begin()
	if got := in.get(first); unsafe.StringData(got) != unsafe.StringData(first) {
		t.Fatal("the first poll's string is not the one kept")
	}
	in.get(strings.Clone("gone-next-poll"))
	tab.end(in)

	in = tab.begin()
	second := strings.Clone("orders")
	if got := in.get(second); unsafe.StringData(got) != unsafe.StringData(first) {
		t.Error("the second poll got its own copy of orders, not the first poll's")
	}
	if got := in.get(""); got != "" {
		t.Errorf("the empty string became %q", got)
	}
	tab.end(in)
	if len(tab.last) != 1 || tab.last["orders"] != "orders" {
		t.Errorf("the table keeps %q, want only the latest poll's orders", tab.last)
	}
	var none *interner
	if got := none.get("x"); got != "x" {
		t.Errorf("a nil interner returned %q for x", got)
	}
}
