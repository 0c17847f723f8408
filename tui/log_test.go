package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/debuglog"
	"github.com/kgroups/kgroups/views/ui"
)

// TestDebugLogRecordsScreensAndErrors: with a trace, the UI logs the
// screens it pushes and pops, the polls that fail and the errors it shows;
// the view never carries any of it.
func TestDebugLogRecordsScreensAndErrors(t *testing.T) {
	var buf bytes.Buffer
	h := newHarness(t, 120, 40, Options{Log: debuglog.New(&buf)}, fixture, failing(errRefused))
	h.poll()
	name := h.m.snap.Groups[0].Name
	h.run(h.send(ui.OpenGroupMsg{Name: name}))
	h.press("esc")
	h.poll()
	h.run(h.send(ui.FlashMsg{Text: "could not read", Error: true}))

	out := buf.String()
	for _, want := range []string{
		`msg="screen push" screen=*groupdetail.Model depth=2`,
		`msg="screen pop" screen=*groupdetail.Model depth=2`,
		`msg="ui poll failed" failures=1 retry_in=`,
		`connection refused`,
		`msg="ui error" text="could not read"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
	if v := h.view(); strings.Contains(v, "screen push") || strings.Contains(v, "level=") {
		t.Errorf("the trace reached the view:\n%s", v)
	}
}
