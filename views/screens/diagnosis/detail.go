package diagnosis

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// detailRows is the least room the selected finding's detail gets: its
// message, its evidence and its suggested next step, under the table.
const detailRows = 6

// rows is the number of findings the table shows at once: all of them
// when they leave room for the detail, else what does.
func (m *Model) rows() int {
	room := m.Height - 2 // the first line and the table's header
	if len(m.findings) == 0 {
		return max(1, room)
	}
	return max(1, min(len(m.findings), room-1-detailRows))
}

// detail is the selected finding in full: its message, every piece of
// evidence (the transaction's names, the record's preview) and the next
// step, each cut to the width, at most n lines.
func (m *Model) detail(f *diagnose.Finding, n int) []string {
	lines := []string{f.Message}
	for _, e := range f.Evidence {
		lines = append(lines, "  "+e.Key+" "+evidenceValue(e.Value))
	}
	if next := render.DiagnoseNext(f); next != "" {
		lines = append(lines, "next: "+next)
	}
	if len(lines) > n {
		lines = lines[:n]
	}
	for i, l := range lines {
		lines[i] = table.FitLine(format.Sanitize(l), m.Width, m.Glyphs.Ellipsis)
	}
	return lines
}

// evidenceValue writes a piece of evidence as `kgroups diagnose -o json`
// does, strings bare.
func evidenceValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}
