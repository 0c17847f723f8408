package groupdetail

import (
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/widgets/lagchart"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// chartState is the Chart tab: the series of the group, or of the
// partition under the Partitions cursor, taken from the history when a
// poll arrives or the selection changes, so that drawing only scales them.
type chartState struct {
	partition bool // chart the selected partition rather than the group
	topic     string
	part      int32
	points    []lag.Point
	lags, tls []float64
	r         lagchart.Renderer
}

// loadChart reads the series for the current scope from the history. It
// costs one pass over the history's ring (a partition's time lags take
// O(n log n) for its n polls), whatever the number of partitions.
func (m *Model) loadChart() {
	c := &m.chart
	c.points = c.points[:0]
	c.topic = ""
	if m.lag == nil || m.g == nil || m.gone {
		c.lags, c.tls = c.lags[:0], c.tls[:0]
		return
	}
	if c.partition && m.rowCount(Partitions) > 0 {
		i := m.partIndex(min(m.wins[Partitions].Cursor, m.rowCount(Partitions)-1))
		p := &m.g.Partitions[i]
		c.topic, c.part = p.Topic, p.Partition
		var latest lag.TimeLag
		if h := m.partitionHealth(i); h != nil {
			latest = h.TimeLag
		}
		c.points = m.lag.PartitionSeries(m.name, p.Topic, p.Partition, latest, c.points)
	} else {
		c.points = m.lag.GroupSeries(m.name, c.points)
	}
	c.lags, c.tls = c.lags[:0], c.tls[:0]
	for _, p := range c.points {
		v := -1.0
		if p.Lag >= 0 {
			v = float64(p.Lag)
		}
		c.lags = append(c.lags, v)
		t := -1.0
		if p.TimeLag.Known() {
			t = p.TimeLag.Seconds
		}
		c.tls = append(c.tls, t)
	}
}

// viewChart draws the scope line, the lag chart, the time-lag chart and a
// shared time axis in height lines. On a short terminal the time-lag chart
// goes first.
func (m *Model) viewChart(b *strings.Builder, height int) {
	s, g, c := m.Styles, m.Glyphs, &m.chart
	var scope strings.Builder
	if c.topic != "" {
		scope.WriteString(s.Title.Render("partition " + format.Sanitize(c.topic) + "/" + strconv.Itoa(int(c.part))))
		scope.WriteString(s.Dim.Render(g.Sep + "c whole group" + g.Sep + g.Up + g.Down + " partition"))
	} else {
		scope.WriteString(s.Title.Render("whole group"))
		scope.WriteString(s.Dim.Render(g.Sep + "c selected partition"))
	}
	if n := len(c.points); n > 1 {
		scope.WriteString(s.Dim.Render(g.Sep + format.Count(n, "poll", "polls") + " over " + format.Span(c.points[n-1].Time.Sub(c.points[0].Time))))
	}
	b.WriteString(table.FitLine(scope.String(), m.Width, g.Ellipsis))
	if len(c.points) == 0 {
		b.WriteString("\n" + s.Dim.Render("  no history yet"))
		return
	}

	rest := height - 2 // the scope line and the time axis
	each := rest / 2
	st := lagchart.Styles{Axis: &s.Dim, Bar: &s.Lag}
	last := c.points[len(c.points)-1]
	lagTitle := s.TableHeader.Render("lag") + s.Dim.Render(" messages"+g.Sep+"now "+columns.Offset(last.Lag))
	tlTitle := s.TableHeader.Render("time lag") + s.Dim.Render(g.Sep+"now "+format.TimeLag(last.TimeLag, g.AtLeast))
	offsetLabel := func(v float64) string { return strconv.FormatInt(int64(v), 10) }
	spanLabel := func(v float64) string {
		return format.TimeLag(lag.TimeLag{Seconds: v, Kind: lag.TimeLagInterpolated}, g.AtLeast)
	}
	lagChart := lagchart.Chart{Title: lagTitle, Values: c.lags, Label: offsetLabel}
	tlChart := lagchart.Chart{Title: tlTitle, Values: c.tls, Label: spanLabel}
	width := max(lagchart.LabelWidth(lagChart), lagchart.LabelWidth(tlChart))
	lagChart.LabelWidth, tlChart.LabelWidth = width, width
	if each >= 3 {
		b.WriteByte('\n')
		c.r.Write(b, lagChart, m.Width, each, g, st)
		b.WriteByte('\n')
		c.r.Write(b, tlChart, m.Width, rest-each, g, st)
	} else if rest >= 3 {
		b.WriteByte('\n')
		c.r.Write(b, lagChart, m.Width, rest, g, st)
	}
	b.WriteByte('\n')
	m.timeAxis(b, width)
}

// timeAxis writes how far back the chart reaches on the left and "now" on
// the right, under the bars.
func (m *Model) timeAxis(b *strings.Builder, labels int) {
	c := &m.chart
	left := format.Span(c.points[len(c.points)-1].Time.Sub(c.points[0].Time)) + " ago"
	var line strings.Builder
	table.Pad(&line, labels+2)
	line.WriteString(left)
	table.Pad(&line, m.Width-line.Len()-len("now"))
	line.WriteString("now")
	b.WriteString(m.Styles.Dim.Render(table.FitLine(line.String(), m.Width, m.Glyphs.Ellipsis)))
}
