package render_test

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/render"
)

// TestOffsetsCSVQuotesAndSanitizes: a hostile topic name is one quoted
// field (RFC 4180); to a file its bytes are exact, to a terminal each row
// is one safe line.
func TestOffsetsCSVQuotesAndSanitizes(t *testing.T) {
	p := &reset.Plan{Group: "g", Rows: []reset.Row{
		{Topic: "inj\nplain,0,0", Partition: 0, Current: 5, New: 1},
		{Topic: "t\x1b]0;pwn\x07", Partition: 1, Current: 5, New: 2},
		{Topic: "orders", Partition: 2, Current: 5, New: 3},
	}}
	var file, tty strings.Builder
	if err := render.OffsetsCSV(&file, p, false); err != nil {
		t.Fatal(err)
	}
	if want := "\"inj\nplain,0,0\",0,1\nt\x1b]0;pwn\x07,1,2\norders,2,3\n"; file.String() != want {
		t.Errorf("to a file %q, want %q", file.String(), want)
	}
	if err := render.OffsetsCSV(&tty, p, true); err != nil {
		t.Fatal(err)
	}
	if want := "\"inj\\nplain,0,0\",0,1\nt\\x1b]0;pwn\\x07,1,2\norders,2,3\n"; tty.String() != want {
		t.Errorf("to a terminal %q, want %q", tty.String(), want)
	}
}
