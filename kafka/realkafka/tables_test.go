//go:build realkafka

package realkafka

import (
	"slices"
	"testing"
)

// The parsers the tier compares with: a Kafka tool's fixed-width table with
// a blank cell and a two-word header, a note before a table, and kgroups'
// tables with free text in the last column. Named TestReal so that the
// tier's -run '^TestReal' runs it.
func TestRealTables(t *testing.T) {
	kafkaOut := "\n" +
		"GROUP           CONSUMER-ID            GROUP-INSTANCE-ID HOST            CLIENT-ID   #PARTITIONS     \n" +
		"k-range         Tu8YFfMWQbefAROlWeY90Q                   /127.0.0.1      consumer-13 2               \n" +
		"k-range         5V0gH7ohRU2GJcIY3GRKbA k-static-a        /127.0.0.1      consumer-14 3               \n" +
		"\n" +
		"Error: Streams group 'wc' has no active members.\n" +
		"GROUP           COORDINATOR (ID)          STATE     #MEMBERS\n" +
		"wc              127.0.0.1:19735  (1)      Empty     0\n"
	rows, err := KafkaRows(kafkaOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3: %+v", len(rows), rows)
	}
	if got, _ := rows[0].Get("GROUP-INSTANCE-ID"); got != "" {
		t.Errorf("blank GROUP-INSTANCE-ID read as %q", got)
	}
	if got, _ := rows[1].Get("GROUP-INSTANCE-ID"); got != "k-static-a" {
		t.Errorf("GROUP-INSTANCE-ID %q, want k-static-a", got)
	}
	if got, _ := rows[2].Get("COORDINATOR (ID)"); got != "127.0.0.1:19735 (1)" {
		t.Errorf("COORDINATOR (ID) %q", got)
	}

	kg, err := Rows("GROUP  TOPIC  PARTITION  NEW-OFFSET  NOTE\n" +
		"wg     w              0           2  1 is before the log start: clamped to 2\n" +
		"\nGROUP  COORDINATOR (ID)     STATE\ng      127.0.0.1:9092 (1)  Stable\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := kg[0].Get("NOTE"); got != "1 is before the log start: clamped to 2" {
		t.Errorf("NOTE %q", got)
	}
	if got, _ := kg[1].Get("COORDINATOR (ID)"); got != "127.0.0.1:9092 (1)" {
		t.Errorf("kgroups COORDINATOR (ID) %q", got)
	}
	if _, err := Rows("A  B  C\nx  y\n"); err == nil {
		t.Error("a short row parsed")
	}

	// Same compares Kafka's columns only, and says where they differ.
	want := []Row{{Header: []string{"GROUP", "LAG"}, Cells: []string{"g", "3"}}}
	got := []Row{{Header: []string{"GROUP", "LAG", "EXTRA"}, Cells: []string{"g", "3", "x"}}}
	eq := func(_, a, b string) bool { return a == b }
	if d := Same(got, want, eq); d != "" {
		t.Errorf("equal rows differ: %s", d)
	}
	got[0].Cells[1] = "4"
	if d := Same(got, want, eq); d == "" {
		t.Error("different lags compared equal")
	}
	// Kafka 3.9's tool: a block straight after another, a cell wider than
	// its column, and a reset plan without line breaks.
	old, err := KafkaRows("\n" +
		"GROUP   TOPIC   PARTITION  CONSUMER-ID     HOST\n" +
		"g       w       0          consumer-g-1-a1b2c3 /127.0.0.1\n" +
		"GROUP   TOPIC   PARTITION  CONSUMER-ID     HOST\n" +
		"h       w       1          -               -\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 2 || old[0].Cells[3] != "consumer-g-1-a1b2c3" || old[0].Cells[4] != "/127.0.0.1" || old[1].Cells[0] != "h" {
		t.Errorf("3.9 tables read as %+v", old)
	}
	plan, err := PlanRows("\nGROUP    TOPIC    PARTITION  NEW-OFFSET     wg       w        2          0              wg       w        1          4              ")
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 2 || !slices.Equal(plan[1].Cells, []string{"wg", "w", "1", "4"}) {
		t.Errorf("run-on plan read as %+v", plan)
	}
	if _, err := PlanRows("GROUP TOPIC PARTITION NEW-OFFSET wg w 2"); err == nil {
		t.Error("a plan with a short row parsed")
	}
	sorted := SortRows([]Row{{Header: []string{"K"}, Cells: []string{"b"}}, {Header: []string{"K"}, Cells: []string{"a"}}}, "K")
	if !slices.Equal(sorted[0].Cells, []string{"a"}) {
		t.Errorf("SortRows: %+v", sorted)
	}
}
