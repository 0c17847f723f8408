package groups

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/spark"
	"github.com/kgroups/kgroups/views/table"
)

// row is one line of the groups table: the group and the figures worked out
// once per poll.
type row struct {
	g   *kafka.Group
	lag int64 // total lag, kafka.NoOffset when no partition has a known lag
	h   *lag.Verdict
	reb *rebStatus
}

// rebStatus is what the rebalance timeline knew of a group at the poll.
type rebStatus struct {
	rebalance.Status
	known bool
}

// sparkWidth is the number of polls the trend column shows.
const sparkWidth = 10

// newColumns defines the groups table. The trend column reads the lag
// history through m, so it is only called for rows on screen.
func (m *Model) newColumns() []table.Col[row] {
	col := func(title string, align columns.Align, v func(row) string) columns.Column[row] {
		return columns.Column[row]{Title: title, Align: align, Value: v}
	}
	// On a narrow terminal the columns go in this order: time since the
	// last rebalance, coordinator, counts, assignor, type, members, then
	// the trend. Name, state, health and both lags stay.
	return []table.Col[row]{
		{Column: col("NAME", columns.Left, func(r row) string { return r.g.Name }), Flex: true, Min: 24},
		{Column: col("TYPE", columns.Left, func(r row) string { return string(r.g.Type) }), Drop: 4},
		{Column: col("STATE", columns.Left, m.stateText), Style: func(r row) *lipgloss.Style { return m.Styles.State(r.g.State, r.g.Err != nil) }},
		{Column: col("HEALTH", columns.Left, func(r row) string { return r.h.Text() }), Style: func(r row) *lipgloss.Style { return m.Styles.Health(r.h) }},
		{Column: col("ASSIGNOR", columns.Left, func(r row) string { return columns.Text(r.g.Assignor) }), Drop: 5},
		{Column: col("MEMBERS", columns.Right, func(r row) string { return strconv.Itoa(len(r.g.Members)) }), Drop: 3},
		{Column: col("TOPICS", columns.Right, func(r row) string { return strconv.Itoa(topicCount(r.g)) }), Drop: 6},
		{Column: col("PARTS", columns.Right, func(r row) string { return strconv.Itoa(len(r.g.Partitions)) }), Drop: 7},
		{Column: col("LAG", columns.Right, func(r row) string { return columns.Offset(r.lag) })},
		{Column: col("TIME-LAG", columns.Right, func(r row) string { return format.TimeLag(r.h.MaxTimeLag, m.Glyphs.AtLeast) })},
		{Column: col("TREND", columns.Left, m.trend), Drop: 2},
		{Column: col("COORD", columns.Right, func(r row) string { return columns.CoordinatorID(r.g.Coordinator) }), Drop: 8},
		{Column: col("LAST-REB", columns.Right, m.lastRebalance), Drop: 9},
	}
}

// stateText says "rebalancing" and for how long while the timeline sees the
// group rebalancing (the state alone does not say since when), else the
// state.
func (m *Model) stateText(r row) string {
	if r.reb.known && r.reb.Rebalancing && r.g.Err == nil {
		return "rebalancing " + age(m.Now().Sub(r.reb.Since), 3)
	}
	return stateText(r)
}

// lastRebalance is the time since the group last finished a rebalance, "-"
// when none was seen since kgroups started watching.
func (m *Model) lastRebalance(r row) string {
	if !r.reb.known || r.reb.LastRebalance.IsZero() {
		return columns.Missing
	}
	return format.Short(m.Now().Sub(r.reb.LastRebalance))
}

// age is an age in its largest whole unit ("58s", "3m", "2h", "4d"),
// padded on the left to width, so that a cell that ages every second keeps
// its width and the columns after it stay put.
func age(d time.Duration, width int) string {
	s := format.Short(d)
	if n := width - len(s); n > 0 {
		s = strings.Repeat(" ", n) + s
	}
	return s
}

// stateText is the state, or "Error" when a failed describe left none.
func stateText(r row) string {
	if r.g.State == "" || (r.g.Err != nil && r.g.State == kafka.StateUnknown) {
		if r.g.Err != nil {
			return "Error"
		}
		return columns.Missing
	}
	return r.g.State
}

// topicCount counts distinct topics; partitions are sorted by topic.
func topicCount(g *kafka.Group) int {
	n := 0
	for i := range g.Partitions {
		if i == 0 || g.Partitions[i].Topic != g.Partitions[i-1].Topic {
			n++
		}
	}
	return n
}

// trend draws the group's lag over the recent polls.
func (m *Model) trend(r row) string {
	if m.hist == nil {
		return ""
	}
	m.series = m.hist.GroupLagSeries(r.g.Name, m.series[:0])
	var b strings.Builder
	spark.Write(&b, m.series, sparkWidth, m.Glyphs.Spark)
	return b.String()
}
