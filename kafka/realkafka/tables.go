//go:build realkafka

package realkafka

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Row is one row of a table with the header it was printed under: the
// Kafka tools print one block a group, and the header of a block holds only
// the columns some row of it fills (GROUP-INSTANCE-ID, for one).
type Row struct {
	Header []string
	Cells  []string
}

// Get is the cell under column col, and whether the row has that column.
func (r Row) Get(col string) (string, bool) {
	i := slices.Index(r.Header, col)
	if i < 0 || i >= len(r.Cells) {
		return "", false
	}
	return r.Cells[i], true
}

// Rows parses kgroups' tables into rows, each with its block's header,
// splitting lines at runs of spaces: kgroups right-aligns numbers and never
// leaves a cell empty ("-" stands for none). The header COORDINATOR (ID)
// and its cells ("host:port (1)") are one column; the last column takes
// the rest of a longer row (free text, such as a reset plan's NOTE). A row
// with fewer cells than its header is an error.
func Rows(out string) ([]Row, error) {
	var rows []Row
	var header []string
	coord := -1
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			header = nil
		case header == nil:
			coord = slices.Index(f, "(ID)")
			if coord > 0 {
				f = joinAt(f, coord)
			}
			header = f
		default:
			if coord > 0 && len(f) > coord {
				f = joinAt(f, coord)
			}
			if len(f) > len(header) {
				// Free text in the last column (a reset plan's NOTE).
				f = append(f[:len(header)-1], strings.Join(f[len(header)-1:], " "))
			}
			if len(f) != len(header) {
				return nil, fmt.Errorf("row %q has %d cells under %d columns %v", line, len(f), len(header), header)
			}
			rows = append(rows, Row{Header: header, Cells: f})
		}
	}
	return rows, nil
}

// joinAt joins f[i-1] and f[i] with a space.
func joinAt(f []string, i int) []string {
	out := slices.Clone(f[:i-1])
	out = append(out, f[i-1]+" "+f[i])
	return append(out, f[i+1:]...)
}

// KafkaRows parses a Kafka tool's tables into rows, each with its block's
// header. The tools print fixed-width columns with printf, header and rows
// alike, and may leave a cell blank (GROUP-INSTANCE-ID of a dynamic member
// beside a static one): each cell is what lies under its header's column,
// from the header word's first character to the next one's, with its runs
// of spaces made one.
func KafkaRows(out string) ([]Row, error) {
	var rows []Row
	var header []string
	var starts []int
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) == "" {
			header = nil
			continue
		}
		if header == nil && isNote(line) {
			continue
		}
		if header != nil && isHeader(line) {
			// Kafka 3.9.1's tool starts the next group's block
			// without a blank line.
			header = nil
		}
		if header == nil {
			header, starts = nil, nil
			for i := 0; i < len(line); {
				if line[i] == ' ' {
					i++
					continue
				}
				j := i
				for j < len(line) && line[j] != ' ' {
					j++
				}
				word := line[i:j]
				if word == "(ID)" && len(header) > 0 {
					header[len(header)-1] += " (ID)"
				} else {
					header = append(header, word)
					starts = append(starts, i)
				}
				i = j
			}
			continue
		}
		if f := strings.Fields(line); len(f) == len(header) && overflows(line, starts) {
			// A cell wider than its column (Kafka 3.9's tool sizes
			// CONSUMER-ID for the group's first block) shifts the rest
			// of the row: with no cell blank, its words are its cells.
			rows = append(rows, Row{Header: header, Cells: f})
			continue
		}
		cells := make([]string, len(header))
		for k, st := range starts {
			end := len(line)
			if k+1 < len(starts) {
				end = min(starts[k+1], len(line))
			}
			if st < end {
				cells[k] = strings.Join(strings.Fields(line[st:end]), " ")
			}
			if k+1 < len(starts) && end < len(line) && end > 0 && line[end-1] != ' ' {
				return nil, fmt.Errorf("row %q: column %s runs into %s", line, header[k], header[k+1])
			}
		}
		rows = append(rows, Row{Header: header, Cells: cells})
	}
	return rows, nil
}

// isHeader reports a line of column titles: GROUP first, then words of
// capitals, digits, '#', '(', ')' and '-' alone.
func isHeader(line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "GROUP" {
		return false
	}
	for _, w := range f {
		if strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#()-") != "" {
			return false
		}
	}
	return true
}

// overflows reports whether some cell of line runs past the start of the
// next column: a character other than a space just before it.
func overflows(line string, starts []int) bool {
	for _, st := range starts[1:] {
		if st < len(line) && st > 0 && line[st-1] != ' ' {
			return true
		}
	}
	return false
}

// PlanRows parses a reset plan of kafka-consumer-groups.sh --dry-run
// (GROUP TOPIC PARTITION NEW-OFFSET), whose cells are never blank, by its
// words: Kafka 3.9.1's tool prints the plan's rows without line
// breaks between them.
func PlanRows(out string) ([]Row, error) {
	header := []string{"GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"}
	f := strings.Fields(out)
	i := slices.Index(f, header[0])
	if i < 0 || len(f) < i+len(header) || !slices.Equal(f[i:i+len(header)], header) {
		return nil, fmt.Errorf("no reset plan in %q", out)
	}
	f = f[i+len(header):]
	if len(f)%len(header) != 0 {
		return nil, fmt.Errorf("reset plan of %d words under %v: %q", len(f), header, out)
	}
	var rows []Row
	for ; len(f) > 0; f = f[len(header):] {
		rows = append(rows, Row{Header: header, Cells: slices.Clone(f[:len(header)])})
	}
	return rows, nil
}

// isNote reports a line the Kafka tools print about a group instead of,
// or before, a table ("Error: Streams group 'x' has no active members.",
// "Consumer group 'x' has no active members.", "Warning: ...").
func isNote(line string) bool {
	for _, p := range []string{"Error: ", "Warning: ", "Consumer group '", "Share group '", "Streams group '"} {
		if strings.HasPrefix(strings.TrimSpace(line), p) {
			return true
		}
	}
	return false
}

// FilterRows keeps the rows whose GROUP is one of groups.
func FilterRows(rows []Row, groups []string) []Row {
	var out []Row
	for _, r := range rows {
		if g, ok := r.Get("GROUP"); ok && slices.Contains(groups, g) {
			out = append(out, r)
		}
	}
	return out
}

// SortRows sorts rows by their cells under the columns cols (for outputs
// whose row order means nothing, such as the order of a group's members,
// which the broker keeps in a hash map).
func SortRows(rows []Row, cols ...string) []Row {
	key := func(r Row) string {
		var b strings.Builder
		for _, c := range cols {
			v, _ := r.Get(c)
			b.WriteString(v)
			b.WriteByte(0)
		}
		return b.String()
	}
	out := slices.Clone(rows)
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// Same says how got (kgroups') differs from want (Kafka's), or "" when
// they have the same rows in the same order and every cell of a Kafka row
// equals kgroups' cell under the same column (kgroups may print more
// columns). equal compares two cells of a column.
func Same(got, want []Row, equal func(col, got, want string) bool) string {
	var b strings.Builder
	show := func() {
		b.WriteString("--- kgroups ---\n")
		for _, r := range got {
			fmt.Fprintf(&b, "%s\n", strings.Join(r.Cells, " | "))
		}
		b.WriteString("--- Kafka ---\n")
		for _, r := range want {
			fmt.Fprintf(&b, "%s\n", strings.Join(r.Cells, " | "))
		}
	}
	if len(got) != len(want) {
		fmt.Fprintf(&b, "%d rows, Kafka %d\n", len(got), len(want))
		show()
		return b.String()
	}
	for i, w := range want {
		for j, col := range w.Header {
			g, ok := got[i].Get(col)
			if !ok {
				fmt.Fprintf(&b, "row %d: no column %s in kgroups' %v\n", i+1, col, got[i].Header)
				show()
				return b.String()
			}
			if !equal(col, g, w.Cells[j]) {
				fmt.Fprintf(&b, "row %d, column %s: kgroups %q, Kafka %q\n", i+1, col, g, w.Cells[j])
				show()
				return b.String()
			}
		}
	}
	return ""
}

// Want is what a settled group looks like: Members members (Stable), or
// none (Empty); with members, every partition of Topics committed up to
// its log end.
type Want struct {
	Members int
	Topics  []string
}

// Settled waits until every group in want is as its Want says, each
// KIP-848 member at the group's assignment: the moment a comparison is
// exact. It returns the groups' types as ListGroups gives them.
func (c *Cluster) Settled(t testing.TB, want map[string]Want) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	var why string
	for {
		types, w, err := c.settled(ctx, want)
		if err == nil && w == "" {
			return types
		}
		why = w
		if err != nil {
			why = err.Error()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("groups did not settle in %s: %s", Wait, why)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (c *Cluster) settled(ctx context.Context, want map[string]Want) (map[string]string, string, error) {
	listed, err := c.adm.ListGroups(ctx)
	if err != nil {
		return nil, "", err
	}
	types := map[string]string{}
	for g := range want {
		lg, ok := listed[g]
		if !ok {
			return nil, g + " not listed", nil
		}
		types[g] = lg.GroupType
	}
	for g, wg := range want {
		n := wg.Members
		switch types[g] {
		case "consumer":
			d, err := c.adm.DescribeConsumerGroups(ctx, g)
			if err != nil {
				return nil, "", err
			}
			dg := d[g]
			if dg.Err != nil {
				return nil, "", dg.Err
			}
			if len(dg.Members) != n {
				return nil, fmt.Sprintf("%s has %d members, want %d", g, len(dg.Members), n), nil
			}
			if n > 0 && (dg.State != "Stable" || dg.Epoch != dg.AssignmentEpoch) {
				return nil, fmt.Sprintf("%s is %s (epoch %d, assignment %d)", g, dg.State, dg.Epoch, dg.AssignmentEpoch), nil
			}
			for _, m := range dg.Members {
				if m.MemberEpoch != dg.Epoch || fmt.Sprint(m.Assignment) != fmt.Sprint(m.TargetAssignment) {
					return nil, fmt.Sprintf("%s member %s reconciling", g, m.MemberID), nil
				}
			}
		default:
			d, err := c.adm.DescribeGroups(ctx, g)
			if err != nil {
				return nil, "", err
			}
			dg := d[g]
			if dg.Err != nil {
				return nil, "", dg.Err
			}
			wantState := "Stable"
			if n == 0 {
				wantState = "Empty"
			}
			if dg.State != wantState || len(dg.Members) != n {
				return nil, fmt.Sprintf("%s is %s with %d members, want %s with %d", g, dg.State, len(dg.Members), wantState, n), nil
			}
		}
		if n == 0 {
			continue
		}
		committed, err := c.adm.FetchOffsets(ctx, g)
		if err != nil {
			return nil, "", err
		}
		ends, err := c.adm.ListEndOffsets(ctx, wg.Topics...)
		if err != nil {
			return nil, "", err
		}
		for _, topic := range wg.Topics {
			for p, end := range ends[topic] {
				o, ok := committed.Lookup(topic, p)
				if !ok || o.At != end.Offset {
					return nil, fmt.Sprintf("%s %s/%d committed %v, log end %d", g, topic, p, o.At, end.Offset), nil
				}
			}
		}
	}
	return types, "", nil
}
