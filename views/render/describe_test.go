package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/render"
)

func describe(t *testing.T, groups []*kafka.Group, opts render.DescribeOptions) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := render.Describe(&out, &errOut, groups, opts); err != nil {
		t.Fatalf("Describe: %v", err)
	}
	return out.String(), errOut.String()
}

func assertText(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n--- got ---\n%s\n--- want ---\n%s\n--- got (quoted) ---\n%q", what, got, want, got)
	}
}

func TestDescribeOffsets(t *testing.T) {
	stdout, stderr := describe(t, []*kafka.Group{ordersGroup(), idleGroup(), newGroup()}, render.DescribeOptions{})
	assertText(t, "stdout", stdout, `GROUP   TOPIC     PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST       CLIENT-ID
orders  orders            0             100             150   50  b-1          /10.0.0.2  app-b
orders  orders            1             200             200    0  b-1          /10.0.0.2  app-b
orders  payments          0               7               7    0  b-1          /10.0.0.2  app-b
orders  orders            3               -              30    -  a-1          /10.0.0.1  app-a
orders  payments          1            1000            1234  234  c-1          /10.0.0.3  app-c
orders  orders            2              42              50    8  -            -          -

GROUP  TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID
idle   orders          0               5             150  145  -            -     -

GROUP  TOPIC     PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST       CLIENT-ID
k848   payments          0               3               7    4  Zx9          /10.0.0.9  svc
k848   payments          1               -            1234    -  Zx9          /10.0.0.9  svc
`)
	assertText(t, "stderr", stderr, `Consumer group 'idle' has no active members.
Warning: Consumer group 'k848' is rebalancing.
`)
}

func TestDescribeOffsetsWide(t *testing.T) {
	stdout, _ := describe(t, []*kafka.Group{idleGroup(), newGroup()}, render.DescribeOptions{Wide: true})
	assertText(t, "stdout", stdout, `GROUP  TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  LOG-START-OFFSET
idle   orders          0               5             150  145  -            -     -                         0

GROUP  TOPIC     PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST       CLIENT-ID  LOG-START-OFFSET
k848   payments          0               3               7    4  Zx9          /10.0.0.9  svc                       0
k848   payments          1               -            1234    -  Zx9          /10.0.0.9  svc                     900
`)
}

func TestDescribeMembers(t *testing.T) {
	stdout, stderr := describe(t, []*kafka.Group{ordersGroup(), idleGroup(), newGroup()}, render.DescribeOptions{View: render.Members})
	assertText(t, "stdout", stdout, `GROUP   CONSUMER-ID  GROUP-INSTANCE-ID  HOST       CLIENT-ID  #PARTITIONS
orders  b-1          pod-b              /10.0.0.2  app-b                3
orders  a-1          -                  /10.0.0.1  app-a                1
orders  c-1          -                  /10.0.0.3  app-c                1
orders  d-1          -                  /10.0.0.4  app-d                0

GROUP  CONSUMER-ID  GROUP-INSTANCE-ID  HOST       CLIENT-ID  #PARTITIONS
k848   Zx9          -                  /10.0.0.9  svc                  2
`)
	// The Empty group gets the Kafka tool's note and no table.
	assertText(t, "stderr", stderr, `Consumer group 'idle' has no active members.
Warning: Consumer group 'k848' is rebalancing.
`)
}

func TestDescribeMembersWide(t *testing.T) {
	stdout, _ := describe(t, []*kafka.Group{ordersGroup()}, render.DescribeOptions{View: render.Members, Wide: true})
	assertText(t, "stdout", stdout, `GROUP   CONSUMER-ID  GROUP-INSTANCE-ID  HOST       CLIENT-ID  #PARTITIONS  ASSIGNMENT
orders  b-1          pod-b              /10.0.0.2  app-b                3  orders(0,1),payments(0)
orders  a-1          -                  /10.0.0.1  app-a                1  orders(3)
orders  c-1          -                  /10.0.0.3  app-c                1  payments(1)
orders  d-1          -                  /10.0.0.4  app-d                0  -
`)
}

func TestDescribeState(t *testing.T) {
	stdout, stderr := describe(t, []*kafka.Group{ordersGroup(), idleGroup()}, render.DescribeOptions{View: render.State})
	assertText(t, "stdout", stdout, `GROUP   COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE   #MEMBERS  LEADER
orders  127.0.0.1:40001 (1)  range                Stable         4  -

GROUP  COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE  #MEMBERS  LEADER
idle   127.0.0.1:40000 (0)  -                    Empty         0  -
`)
	assertText(t, "stderr", stderr, "Consumer group 'idle' has no active members.\n")
}

// TestDescribeStateLeader: LEADER names the implementation every member's
// evidence points to (here, their client ids), "?" when some members are
// not identified (the leader may be one of them) and "mixed" when they
// differ.
func TestDescribeStateLeader(t *testing.T) {
	for _, tc := range []struct {
		clients []string
		want    string
	}{
		{[]string{"rdkafka", "rdkafka", "rdkafka", "rdkafka"}, "librdkafka"},
		{[]string{"rdkafka", "app-a", "rdkafka", "rdkafka"}, "?"},
		{[]string{"rdkafka", "kgo", "rdkafka", "rdkafka"}, "mixed"},
		{[]string{"kgo", "kgo", "consumer-orders-1", "kgo"}, "Java/franz-go"},
	} {
		g := ordersGroup()
		for i := range g.Members {
			g.Members[i].ClientID = tc.clients[i]
		}
		stdout, _ := describe(t, []*kafka.Group{g}, render.DescribeOptions{View: render.State})
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if f := strings.Fields(lines[1]); f[len(f)-1] != tc.want {
			t.Errorf("clients %v: LEADER %q, want %q\n%s", tc.clients, f[len(f)-1], tc.want, stdout)
		}
	}
}

func TestDescribeNothingToShow(t *testing.T) {
	// A Stable group whose only member has nothing assigned and that never
	// committed has no partition rows: the Kafka tool prints no table.
	g := &kafka.Group{Name: "lonely", Type: kafka.TypeClassic, State: kafka.StateStable,
		Members: []kafka.Member{{MemberID: "m-1", ClientID: "c", Host: "/h"}}}
	// An Empty group without commits: the state note is all there is.
	e := &kafka.Group{Name: "gone", Type: kafka.TypeClassic, State: kafka.StateEmpty}
	stdout, stderr := describe(t, []*kafka.Group{g, e}, render.DescribeOptions{})
	assertText(t, "stdout", stdout, "")
	assertText(t, "stderr", stderr, `Consumer group 'lonely' has no committed offsets and no assigned partitions.
Consumer group 'gone' has no active members.
`)

	stdout, stderr = describe(t, []*kafka.Group{{Name: "x", State: kafka.StateStable}}, render.DescribeOptions{View: render.Members})
	assertText(t, "members stdout", stdout, "")
	assertText(t, "members stderr", stderr, "Consumer group 'x' has no members.\n")
}

func TestStateNote(t *testing.T) {
	for _, tc := range []struct{ state, want string }{
		{kafka.StateStable, ""},
		{kafka.StateEmpty, "Consumer group 'g' has no active members."},
		{kafka.StatePreparingRebalance, "Warning: Consumer group 'g' is rebalancing."},
		{kafka.StateCompletingRebalance, "Warning: Consumer group 'g' is rebalancing."},
		{kafka.StateAssigning, "Warning: Consumer group 'g' is rebalancing."},
		{kafka.StateReconciling, "Warning: Consumer group 'g' is rebalancing."},
		{kafka.StateDead, ""},
		{kafka.StateUnknown, ""},
	} {
		if got := render.StateNote(&kafka.Group{Name: "g", State: tc.state}); got != tc.want {
			t.Errorf("StateNote(%s) = %q, want %q", tc.state, got, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	var b bytes.Buffer
	if err := render.List(&b, []*kafka.Group{brokenGroup(), idleGroup(), newGroup(), ordersGroup()}, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "list", b.String(), `GROUP   TYPE      STATE        ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR
broken  classic   Unknown      -               0       0           0    -            -
idle    classic   Empty        -               0       1           1  145            0
k848    consumer  Reconciling  uniform         1       1           2    4            2
orders  classic   Stable       range           4       2           6  292            1
`)
}

func TestListEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := render.List(&b, nil, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "list", b.String(), "GROUP  TYPE  STATE  ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR\n")
}

func TestTable(t *testing.T) {
	type row struct {
		name string
		n    int
	}
	cols := []columns.Column[row]{
		{Title: "NAME", Align: columns.Left, Value: func(r row) string { return r.name }},
		{Title: "N", Align: columns.Right, Value: func(r row) string { return strings.Repeat("9", r.n) }},
		{Title: "LAST", Align: columns.Left, Value: func(row) string { return columns.Text("") }},
	}
	got := render.Table(cols, []row{{"a", 1}, {"long-name", 3}, {"ünï", 0}, {"tab\there\nnl", 2}, {"消费者组", 1}, {"👩‍💻", 1}})
	// Widths count terminal cells, not bytes or runes (a CJK character
	// and an emoji take two); control characters become visible escapes
	// (format.Sanitize), so one row stays one line; no line has trailing
	// spaces.
	want := "NAME             N  LAST\n" +
		"a                9  -\n" +
		"long-name      999  -\n" +
		"ünï                 -\n" +
		"tab\\there\\nnl   99  -\n" +
		"消费者组         9  -\n" +
		"👩‍💻               9  -\n"
	assertText(t, "table", got, want)
}

func TestTableRightAlignedLastColumn(t *testing.T) {
	cols := []columns.Column[int]{
		{Title: "A", Align: columns.Left, Value: func(int) string { return "x" }},
		{Title: "COUNT", Align: columns.Right, Value: func(i int) string { return strings.Repeat("1", i) }},
	}
	assertText(t, "table", render.Table(cols, []int{1, 5}), "A  COUNT\nx      1\nx  11111\n")
}
