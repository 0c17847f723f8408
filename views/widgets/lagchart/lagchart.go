// Package lagchart draws a group's or a partition's lag over the history
// window as a bar chart in the terminal: block glyphs with eight steps per
// cell on UTF-8 terminals, and ASCII elsewhere.
//
// A chart is drawn from a bounded series (the history's ring), so drawing
// costs O(width x height) plus one pass over at most that ring, however long
// kgroups has run.
package lagchart

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Chart is one series to draw.
type Chart struct {
	// Title is the first line, already styled.
	Title string
	// Values are oldest first; a negative value is unknown and draws as a
	// gap.
	Values []float64
	// Label formats the axis labels (the top of the scale and zero).
	Label func(float64) string
	// LabelWidth is the least width of the label column, so that charts
	// drawn one above the other line their bars up.
	LabelWidth int
}

// LabelWidth is the width c's labels need.
func LabelWidth(c Chart) int {
	top := 0.0
	for _, v := range c.Values {
		top = max(top, v)
	}
	return max(c.LabelWidth, format.Width(c.Label(top)), format.Width(c.Label(0)))
}

// Styles are what a chart draws with.
type Styles struct {
	Axis *lipgloss.Style
	Bar  *lipgloss.Style
}

// Renderer draws charts, keeping its buffers between frames so that a
// redraw allocates little. It is not safe for concurrent use.
type Renderer struct {
	units []int // per column: filled sub-cells, -1 for unknown
}

// Write draws c in height lines of at most width cells: the title, the
// bars with the top of the scale on the first bar row, and the baseline
// with zero. It draws nothing below 3 lines.
func (r *Renderer) Write(b *strings.Builder, c Chart, width, height int, g ui.Glyphs, st Styles) {
	if height < 3 || width < 1 {
		return
	}
	b.WriteString(table.FitLine(c.Title, width, g.Ellipsis))
	rows := height - 2

	top := 0.0
	for _, v := range c.Values {
		top = max(top, v)
	}
	hi, lo := c.Label(top), c.Label(0)
	lw := LabelWidth(c)
	cols := width - lw - 2
	if cols < 1 {
		for range height - 1 {
			b.WriteByte('\n')
		}
		return
	}
	r.scale(c.Values, cols, rows, top, len(g.Bars))

	var line strings.Builder
	for row := 0; row < rows; row++ {
		b.WriteByte('\n')
		label, axis := "", g.AxisV
		if row == 0 {
			label, axis = hi, g.AxisTick
		}
		table.Pad(b, lw-format.Width(label))
		b.WriteString(st.Axis.Render(label + " " + axis))
		line.Reset()
		floor := (rows - 1 - row) * len(g.Bars) // sub-cells below this row
		for _, u := range r.units {
			fill := min(u-floor, len(g.Bars))
			if fill <= 0 {
				line.WriteByte(' ')
				continue
			}
			line.WriteRune(g.Bars[fill-1])
		}
		if bars := strings.TrimRight(line.String(), " "); bars != "" {
			b.WriteString(st.Bar.Render(bars))
		}
	}
	b.WriteByte('\n')
	table.Pad(b, lw-format.Width(lo))
	b.WriteString(st.Axis.Render(lo + " " + g.AxisOrigin + strings.Repeat(g.AxisH, cols)))
}

// scale maps the values onto cols columns (stretching a short series,
// taking the maximum of each bucket of a long one) and each column's value
// onto filled sub-cells out of rows x steps. A value above zero fills at
// least one sub-cell, so that any lag shows.
func (r *Renderer) scale(vs []float64, cols, rows int, top float64, steps int) {
	if cap(r.units) < cols {
		r.units = make([]int, cols)
	}
	r.units = r.units[:cols]
	n := len(vs)
	for x := range cols {
		v := -1.0
		if n > 0 {
			from, to := x*n/cols, (x+1)*n/cols
			if to <= from {
				to = from + 1
			}
			for _, w := range vs[from:to] {
				v = max(v, w)
			}
		}
		switch {
		case v <= 0 || top <= 0:
			r.units[x] = 0
		default:
			u := int(math.Round(v / top * float64(rows*steps)))
			r.units[x] = max(1, u)
		}
	}
}
