package diagnosis

import (
	"strconv"

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
// lines. When they do not fit, evidence goes first, from the last, and a
// line says how many pieces are left out: the next step is what the
// reader acts on, and it is never cut silently.
func (m *Model) detail(f *diagnose.Finding, n int) []string {
	width := max(m.Width, 1)
	lines := format.Wrap(format.Sanitize(render.DiagnoseMessage(f)), width)
	var evidence, next []string
	for _, e := range f.Evidence {
		evidence = append(evidence, table.FitLine(format.Sanitize("  "+e.Key+" "+render.DiagnoseEvidence(e.Key, e.Value)), m.Width, m.Glyphs.Ellipsis))
	}
	if s := render.DiagnoseNext(f); s != "" {
		next = format.Wrap(format.Sanitize("next: "+s), width)
	}
	if keep := n - len(lines) - len(next) - 1; len(lines)+len(evidence)+len(next) > n && keep >= 0 && keep < len(evidence) {
		more := len(evidence) - keep
		word := "pieces"
		if more == 1 {
			word = "piece"
		}
		evidence = append(evidence[:keep:keep], table.FitLine("  "+m.Glyphs.Ellipsis+" "+strconv.Itoa(more)+" more "+word+" of evidence: a taller window shows them", m.Width, m.Glyphs.Ellipsis))
	}
	lines = append(append(lines, evidence...), next...)
	if len(lines) > n {
		lines = lines[:n]
	}
	return lines
}
