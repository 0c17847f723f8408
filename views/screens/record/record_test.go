package record

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func TestHardWrapKeepsSpaces(t *testing.T) {
	got := hardWrap("  00000000  de ad  |..|", 10)
	if strings.Join(got, "|") != "  00000000|  de ad  ||..|" {
		t.Errorf("got %q", got)
	}
	if got := hardWrap("日本語テキスト", 5); strings.Join(got, "|") != "日本|語テ|キス|ト" {
		t.Errorf("wide: %q", got)
	}
}

// TestViewerWrapsAndDropsLateAnswers: w toggles wrapping of a long value
// at 40 columns, and the answer to an older read is dropped.
func TestViewerWrapsAndDropsLateAnswers(t *testing.T) {
	value := strings.Repeat("abcdefghij", 6)
	calls := 0
	read := func(req kafka.PeekRequest) (kafka.PeekResult, error) {
		calls++
		return kafka.PeekResult{Partitions: []kafka.PeekPartition{{Topic: "t", Partition: 0, Committed: 3, Start: 3, LogEnd: 9,
			Records: []kafka.PeekRecord{{Offset: req.Offset, Key: fmt.Appendf(nil, "read-%d", calls), Value: []byte(value)}}}}}, nil
	}
	m, cmd := New(viewtest.Common(40, 20, true), ui.OpenRecordMsg{Group: "g", Topic: "t", Offset: 3}, read)
	first := viewtest.Do(cmd)
	next := viewtest.Do(m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})) // no record yet: nothing asked
	if next != nil {
		t.Fatalf("n before a record asked %v", next)
	}
	m.Update(first)
	body := viewtest.Strip(m.View())
	if !strings.Contains(body, "  abcdefghijabcdefghijabcdefghijabcdefgh\n") || !strings.Contains(body, "\nijabcdefghijabcdefghij") {
		t.Fatalf("not wrapped at 40:\n%s", body)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("w")})
	if body := viewtest.Strip(m.View()); strings.Contains(body, "\nijabcdefghij") {
		t.Fatalf("w kept wrapping:\n%s", body)
	}
	stale := viewtest.Do(m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}))
	latest := viewtest.Do(m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}))
	m.Update(latest)
	m.Update(stale)
	if body := viewtest.Strip(m.View()); !strings.Contains(body, "offset       4") || !strings.Contains(body, "key          read-3") {
		t.Errorf("the stale answer replaced the latest:\n%s", body)
	}
}

// TestViewerCloseCancelsLayout: a large record's layout runs as a request;
// closing the viewer before it runs cancels it (it gives no lines), and a
// newer layout makes the older answer moot.
func TestViewerCloseCancelsLayout(t *testing.T) {
	value := []byte(strings.Repeat("[", 9999) + strings.Repeat("]", 9999))
	read := func(kafka.PeekRequest) (kafka.PeekResult, error) {
		return kafka.PeekResult{Partitions: []kafka.PeekPartition{{Topic: "t", Partition: 0, Committed: 3, Start: 3, LogEnd: 9,
			Records: []kafka.PeekRecord{{Offset: 3, Value: value}}}}}, nil
	}
	m, cmd := New(viewtest.Common(80, 20, true), ui.OpenRecordMsg{Group: "g", Topic: "t", Offset: 3}, read)
	layout := m.Update(viewtest.Do(cmd))
	if layout == nil {
		t.Fatal("no layout request for a 19,998-byte record")
	}
	older := layout().(ui.Request)
	newer := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})().(ui.Request)
	if r := older.Run().(renderMsg); r.body != nil {
		t.Errorf("the older layout was not cancelled: %d lines", len(r.body))
	}
	m.Close()
	if r := newer.Run().(renderMsg); r.body != nil {
		t.Errorf("the layout ran on after Close: %d lines", len(r.body))
	}
	if m.rec != nil || m.lines != nil {
		t.Error("Close kept the record")
	}
}
