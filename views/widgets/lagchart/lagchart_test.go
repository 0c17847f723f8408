package lagchart

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

var plain = lipgloss.NewStyle()

func draw(r *Renderer, c Chart, width, height int, g ui.Glyphs) string {
	var b strings.Builder
	r.Write(&b, c, width, height, g, Styles{Axis: &plain, Bar: &plain})
	return viewtest.Strip(b.String())
}

func itoa(v float64) string { return strconv.Itoa(int(v)) }

func TestChart(t *testing.T) {
	// Six polls stretched over 17 columns; the unknown one is a gap.
	c := Chart{Title: "lag", Values: []float64{0, 1, 2, 4, -1, 8}, Label: itoa}
	var r Renderer
	tests := []struct {
		g    ui.Glyphs
		want []string
	}{
		{ui.UnicodeGlyphs, []string{
			"lag",
			"8 ┤               ██",
			"  │         ▄▄▄   ██",
			"  │   ▃▃▃▆▆▆███   ██",
			"0 └─────────────────",
		}},
		{ui.ASCIIGlyphs, []string{
			"lag",
			"8 +               ##",
			"  |         :::   ##",
			"  |   ...:::###   ##",
			"0 +-----------------",
		}},
	}
	for _, tt := range tests {
		if got, want := draw(&r, c, 20, 5, tt.g), strings.Join(tt.want, "\n"); got != want {
			t.Errorf("chart:\n%s\nwant\n%s", got, want)
		}
	}
}

// TestChartBuckets: a series longer than the width draws each column as
// the largest value of its bucket, so no peak disappears.
func TestChartBuckets(t *testing.T) {
	c := Chart{Title: "lag", Values: []float64{0, 1, 2, 8, -1, 4}, Label: itoa, LabelWidth: 3}
	var r Renderer
	want := strings.Join([]string{
		"lag",
		"  8 ┤ █",
		"    │▂██",
		"  0 └───",
	}, "\n")
	if got := draw(&r, c, 8, 4, ui.UnicodeGlyphs); got != want {
		t.Fatalf("chart:\n%s\nwant\n%s", got, want)
	}
}

func TestChartEdges(t *testing.T) {
	var r Renderer
	c := Chart{Title: "time lag", Values: []float64{-1, -1}, Label: itoa}
	if got, want := draw(&r, c, 10, 3, ui.UnicodeGlyphs), "time lag\n0 ┤\n0 └───────"; got != want {
		t.Errorf("all unknown:\n%q\nwant\n%q", got, want)
	}
	if got := draw(&r, c, 10, 2, ui.UnicodeGlyphs); got != "" {
		t.Errorf("two lines: %q, want nothing", got)
	}
	// Too narrow for any bar: the title and blank lines, the height kept.
	if got := draw(&r, Chart{Title: "lag", Values: []float64{5}, Label: itoa}, 2, 4, ui.UnicodeGlyphs); got != "l…\n\n\n" {
		t.Errorf("narrow: %q", got)
	}
}

// BenchmarkChart draws a full ring of 60 polls at 120 columns: the cost is
// in the cells drawn.
func BenchmarkChart(b *testing.B) {
	vs := make([]float64, 60)
	for i := range vs {
		vs[i] = float64(i * i)
	}
	c := Chart{Title: "lag", Values: vs, Label: itoa}
	var r Renderer
	var sb strings.Builder
	b.ReportAllocs()
	for b.Loop() {
		sb.Reset()
		r.Write(&sb, c, 120, 14, ui.UnicodeGlyphs, Styles{Axis: &plain, Bar: &plain})
	}
}
