package diagnosis

import (
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
	room := m.Height - 2 - len(m.notes()) // the first line, the notes and the table's header
	if len(m.findings) == 0 {
		return max(1, room)
	}
	return max(1, min(len(m.findings), room-1-detailRows))
}

// detail is the selected finding in full: its message wrapped to the
// width, every piece of evidence in words (spans, times, sizes with units:
// render.DiagnoseEvidence) and the next step, wrapped too, at most n
// lines.
func (m *Model) detail(f *diagnose.Finding, n int) []string {
	width := max(m.Width, 1)
	lines := format.Wrap(format.Sanitize(render.DiagnoseMessage(f)), width)
	for _, e := range f.Evidence {
		lines = append(lines, table.FitLine(format.Sanitize("  "+e.Key+" "+render.DiagnoseEvidence(e.Key, e.Value)), m.Width, m.Glyphs.Ellipsis))
	}
	if next := render.DiagnoseNext(f); next != "" {
		lines = append(lines, format.Wrap(format.Sanitize("next: "+next), width)...)
	}
	if len(lines) > n {
		lines = lines[:n]
	}
	return lines
}
