package render

import (
	"errors"
	"strings"
	"testing"
)

// TestPrintfKeepsArgumentsOnOneLine: a newline inside a broker string (a
// member id, an error) is escaped like every other control, so a note
// cannot forge a line of its own; the layout's own line breaks stay.
func TestPrintfKeepsArgumentsOnOneLine(t *testing.T) {
	var b strings.Builder
	if err := Printf(&b, "kgroups: member %s left\nnext: %v (%q)", "cid-nl-line1\nline2", errors.New("boom\r\nforged"), "q\nx"); err != nil {
		t.Fatal(err)
	}
	want := "kgroups: member cid-nl-line1\\nline2 left\nnext: boom\\r\\nforged (\"q\\nx\")\n"
	if got := b.String(); got != want {
		t.Fatalf("Printf =\n%q\nwant\n%q", got, want)
	}
}
