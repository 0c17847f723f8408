package grouplist

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/spark"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// row is one line of the groups table: the group and the figures worked out
// once per poll.
type row struct {
	g   *kafka.Group
	lag int64 // total lag, kafka.NoOffset when no partition has a known lag
	h   *lag.Verdict
	// lastReb is when the group last finished a rebalance, zero when
	// none was seen (or the timeline does not know the group).
	lastReb time.Time
	// glance: the Diagnosis rules at a glance (diagnose.GlanceAt): with
	// an ERR finding the NAME cell starts with FindingMark, and a WARN or
	// ERR verdict is followed by the short cause.
	glance diagnose.Glance
}

// FindingMark starts the NAME cell of a group with an ERR diagnosis
// finding (records lost to retention, a commit past the log end, a member
// that stopped committing), so the HEALTH column keeps its width.
const FindingMark = "! "

func nameText(r row) string {
	if r.glance.Err {
		return FindingMark + r.g.Name
	}
	return r.g.Name
}

// healthText is the verdict, and after a WARN or ERR the short cause the
// poll already knows ("ERR STALL · member not committing", "WARN · slower
// than producers"; diagnose.Cause), so the answer is one glance.
func healthText(r row, sep string) string {
	t := r.h.Text()
	if c := r.glance.For(r.h); c != "" {
		return t + sep + c
	}
	return t
}

// marksLegend says, for the help screen, what the groups screen marks.
func marksLegend() ui.Section {
	entry := func(mark, desc string) key.Binding { return key.NewBinding(key.WithHelp(mark, desc)) }
	return ui.Section{Title: "Marks", Bindings: []key.Binding{
		entry(strings.TrimSpace(FindingMark)+" NAME", "an ERR finding: see the group's Diagnosis tab"),
		entry("ERR · cause", "why a WARN or ERR, when the poll knows it"),
	}}
}

// sparkWidth is the number of polls the trend column shows.
const sparkWidth = 10

// stateWidth holds every state the STATE column shows by itself
// ("rebalancing" is the longest), so a group that starts or finishes a
// rebalance moves no other column.
const stateWidth = len("rebalancing")

// healthWidth holds every verdict the HEALTH column shows ("WARN
// NO-COMMITS" is the longest, "JUDGING 10/10" while judging), so that the
// first verdicts after a window of polls move nothing. It and healthFull
// are worked out when the first table is made, not at every command's
// start.
var healthWidth = sync.OnceValue(func() int { return lag.TextWidth(lag.DefaultConfig().Window) })

// healthFull is the HEALTH column's width where the terminal has room: a
// verdict and the longest cause after it ("ERR STOP · no members since
// 09:14:05"; diagnose.MaxCauseWidth). The column is always this wide, so
// that a cause appearing or going moves no column and drops none: which
// columns show depends on the terminal's width alone. A longer pair (a
// WARN NO-COMMITS with a cause) is cut with an ellipsis.
var healthFull = sync.OnceValue(func() int { return max(healthWidth(), len("ERR STOP · ")+diagnose.MaxCauseWidth()) })

// newColumns defines the groups table. The trend column reads the lag
// history through m, so it is only called for rows on screen. The table
// only grows its columns (table.Table.GrowOnly) and reserves the width of
// the state and the trend, so a refresh never re-lays it out.
func (m *Model) newColumns() []table.Col[row] {
	col := func(title string, align columns.Align, v func(row) string) columns.Column[row] {
		return columns.Column[row]{Title: title, Align: align, Value: v}
	}
	// On a narrow terminal the columns go in this order: time since the
	// last rebalance, coordinator, counts, assignor; then HEALTH narrows
	// to the verdict's width (causes cut: ShrinkAfter); then type,
	// members, the trend. Name, state, health and both lags stay. HEALTH
	// is always healthFull wide where there is room, so the rows never
	// decide the layout.
	return []table.Col[row]{
		{Column: col("NAME", columns.Left, nameText), Flex: true, Min: 24},
		{Column: col("TYPE", columns.Left, func(r row) string { return string(r.g.Type) }), Drop: 4},
		{Column: col("STATE", columns.Left, stateText), Reserve: stateWidth, Style: func(r row) *lipgloss.Style { return m.Styles.State(r.g.State, r.g.Err != nil) }},
		{Column: col("HEALTH", columns.Left, func(r row) string { return healthText(r, m.Glyphs.Sep) }), Reserve: healthFull(), Max: healthFull(), Min: healthWidth(), ShrinkAfter: 4, Style: func(r row) *lipgloss.Style { return m.Styles.Health(r.h) }},
		{Column: col("ASSIGNOR", columns.Left, func(r row) string { return columns.Text(r.g.Assignor) }), Drop: 5},
		{Column: col("MEMBERS", columns.Right, func(r row) string { return strconv.Itoa(len(r.g.Members)) }), Drop: 3},
		{Column: col("TOPICS", columns.Right, func(r row) string { return strconv.Itoa(topicCount(r.g)) }), Drop: 6},
		{Column: col("PARTS", columns.Right, func(r row) string { return strconv.Itoa(len(r.g.Partitions)) }), Drop: 7},
		{Column: col("LAG", columns.Right, func(r row) string { return columns.Offset(r.lag) })},
		{Column: col("TIME-LAG", columns.Right, func(r row) string { return format.TimeLag(r.h.MaxTimeLag, m.Glyphs.AtLeast) })},
		{Column: col("TREND", columns.Left, m.trend), Reserve: sparkWidth, Drop: 2},
		{Column: col("COORD", columns.Right, func(r row) string { return columns.CoordinatorID(r.g.Coordinator) }), Drop: 8},
		{Column: col("LAST-REB", columns.Right, m.lastRebalance), Drop: 9},
	}
}

// lastRebalance is the time since the group last finished a rebalance, "-"
// when none was seen since kgroups started watching.
func (m *Model) lastRebalance(r row) string {
	if r.lastReb.IsZero() {
		return columns.Missing
	}
	return format.Short(m.Now().Sub(r.lastReb))
}

// stateText is the state, "rebalancing" for every state of a rebalance
// (PreparingRebalance, CompletingRebalance, Assigning, Reconciling: the
// summary line and the group screen name them), or "Error" when a failed
// describe left none.
func stateText(r row) string {
	if r.g.State == "" || (r.g.Err != nil && r.g.State == kafka.StateUnknown) {
		if r.g.Err != nil {
			return "Error"
		}
		return columns.Missing
	}
	if r.g.Err == nil && rebalance.Rebalancing(r.g.State) {
		return "rebalancing"
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

// trend draws the group's total lag over the recent polls, one block per
// poll on the scale every row shares (spark.Level: one level per digit),
// or the missing mark until two polls know the lag. A group whose lag is
// not known now (no partition has a commit) has no trend either: the
// history counts its total as 0, which would draw as "no lag".
func (m *Model) trend(r row) string {
	if m.hist == nil {
		return ""
	}
	if r.lag < 0 {
		return columns.Missing
	}
	m.series = m.hist.GroupLagSeries(r.g.Name, m.series[:0])
	var b strings.Builder
	if !spark.Write(&b, m.series, sparkWidth, m.Glyphs.Spark) {
		return columns.Missing
	}
	return b.String()
}

// trendLegend says, for the help screen, what the TREND column draws: the
// glyphs of the levels in rows of four with the lags they stand for.
func trendLegend(g ui.Glyphs) ui.Section {
	entry := func(mark, desc string) key.Binding {
		return key.NewBinding(key.WithHelp(mark, desc))
	}
	bands := spark.Bands(len(g.Spark))
	var entries []key.Binding
	for i := 0; i < len(g.Spark); i += 4 {
		end := min(i+4, len(g.Spark))
		marks := make([]string, 0, 4)
		for _, r := range g.Spark[i:end] {
			marks = append(marks, string(r))
		}
		entries = append(entries, entry(strings.Join(marks, " "), strings.Join(bands[i:end], ", ")))
	}
	entries = append(entries, entry(columns.Missing, "fewer than two polls"))
	return ui.Section{Title: "TREND: lag per poll, a level per digit", Bindings: entries}
}
