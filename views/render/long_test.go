package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// longGroup is idleGroup under a 10,000-character name, with a member whose
// host and client id are far longer than a column's cap.
func longGroup() *kafka.Group {
	g := idleGroup()
	g.Name = strings.Repeat("g", 10000)
	return g
}

// TestListCutsLongNames: one 10,000-character name no longer stretches
// every line; the cell is cut at 64 cells with an ellipsis, and --wide
// shows it whole.
func TestListCutsLongNames(t *testing.T) {
	var b bytes.Buffer
	if err := render.List(&b, []*kafka.Group{longGroup(), ordersGroup()}, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	cut := strings.Repeat("g", 63) + "…"
	assertText(t, "list", b.String(), "GROUP"+strings.Repeat(" ", 59)+"  TYPE     STATE   ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR\n"+
		cut+"  classic  Empty   -               0       1           1  145            0\n"+
		"orders"+strings.Repeat(" ", 58)+"  classic  Stable  range           4       2           6  292            1\n")

	b.Reset()
	if err := render.List(&b, []*kafka.Group{longGroup()}, render.LayoutFor(false, false)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(b.String(), "\n")[1]; !strings.HasPrefix(got, strings.Repeat("g", 61)+"...  classic") {
		t.Errorf("ASCII ellipsis: %s", short(got))
	}

	b.Reset()
	if err := render.List(&b, []*kafka.Group{longGroup()}, render.Layout{Wide: true}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "list --wide", b.String(), "GROUP"+strings.Repeat(" ", 9995)+"  TYPE     STATE  ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR\n"+
		strings.Repeat("g", 10000)+"  classic  Empty  -               0       1           1  145            0\n")
}

// TestDescribeCutsLongCells: ids at 64 cells, hosts and client ids at 40,
// counted in terminal cells (a wide character is two, and one that would
// straddle the cap is dropped); describe --wide shows them whole.
func TestDescribeCutsLongCells(t *testing.T) {
	g := ordersGroup()
	g.Members = g.Members[:1]
	g.Partitions = g.Partitions[3:4]
	host := "/" + strings.Repeat("h", 60)
	client := strings.Repeat("消", 30) // 60 cells
	member := strings.Repeat("m", 65)
	g.Members[0].MemberID, g.Members[0].Host, g.Members[0].ClientID = member, host, client
	stdout, _ := describe(t, []*kafka.Group{g}, render.DescribeOptions{})
	assertText(t, "describe", stdout, "GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID"+strings.Repeat(" ", 53)+"  HOST"+strings.Repeat(" ", 36)+"  CLIENT-ID\n"+
		"orders  orders          3               -              30    -  "+strings.Repeat("m", 63)+"…  /"+strings.Repeat("h", 38)+"…  "+strings.Repeat("消", 19)+"…\n")
	for _, line := range strings.Split(stdout, "\n") {
		if w := format.Width(line); w > 220 {
			t.Errorf("line of %d cells", w)
		}
	}

	stdout, _ = describe(t, []*kafka.Group{g}, render.DescribeOptions{Wide: true})
	assertText(t, "describe --wide", stdout, "GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID"+strings.Repeat(" ", 54)+"  HOST"+strings.Repeat(" ", 57)+"  CLIENT-ID"+strings.Repeat(" ", 51)+"  LOG-START-OFFSET\n"+
		"orders  orders          3               -              30    -  "+member+"  "+host+"  "+client+"                 0\n")
}

// TestLongCellsCutAfterSanitize: the cap counts what the terminal shows
// (escapes included), the cut never lets a raw control character through,
// and JSON keeps every byte.
func TestLongCellsCutAfterSanitize(t *testing.T) {
	g := longGroup()
	g.Name = strings.Repeat("\x1b", 40)
	var b bytes.Buffer
	if err := render.List(&b, []*kafka.Group{g}, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	row := strings.Split(b.String(), "\n")[1]
	if want := strings.Repeat(`\x1b`, 15) + `\x1…  classic`; !strings.HasPrefix(row, want) {
		t.Errorf("row %q, want prefix %q", row, want)
	}
	b.Reset()
	if err := render.JSON(&b, []*kafka.Group{longGroup()}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"group": "`+strings.Repeat("g", 10000)+`"`) {
		t.Error("JSON does not carry the whole name")
	}
}

// TestWriteTablesCutLongNames: the plan, result and deletion tables of the
// writing commands cut a long group name too, and --wide shows it.
func TestWriteTablesCutLongNames(t *testing.T) {
	name := strings.Repeat("n", 100)
	p := &reset.Plan{Group: name, Exists: true, State: kafka.StateEmpty, Rows: []reset.Row{{Topic: "t", Partition: 0, Current: 5, New: 0, LogStart: 0, LogEnd: 9}}}
	var b bytes.Buffer
	if err := render.Plan(&b, p, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "plan", b.String(), "GROUP"+strings.Repeat(" ", 59)+"  TOPIC  PARTITION  NEW-OFFSET  CURRENT-OFFSET  LOG-START  LOG-END  DELTA  NOTE\n"+
		strings.Repeat("n", 63)+"…  t              0           0               5          0        9     -5  -\n")
	b.Reset()
	if err := render.Plan(&b, p, render.Layout{Wide: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), name+"  t") {
		t.Errorf("plan --wide: %s", short(b.String()))
	}
	b.Reset()
	if err := render.Deletions(&b, []*reset.GroupDeletion{{Group: name, Exists: true, State: kafka.StateEmpty}}, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "deletions", b.String(), "GROUP"+strings.Repeat(" ", 59)+"  STATE  #MEMBERS  #COMMITTED  CAN-DELETE\n"+
		strings.Repeat("n", 63)+"…  Empty         0           0  yes\n")
}
