package reset

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseCSV(t *testing.T) {
	in := "orders,0,10\n\norders,1,0\r\n payments , 2 , 7 \n"
	got, err := ParseCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileRow{
		{Topic: "orders", Partition: 0, Offset: 10, Line: 1},
		{Topic: "orders", Partition: 1, Offset: 0, Line: 3},
		{Topic: "payments", Partition: 2, Offset: 7, Line: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseCSV = %+v, want %+v", got, want)
	}
}

func TestParseCSVGroups(t *testing.T) {
	in := "g1,orders,0,10\ng2,orders,0,20\ng1,orders,1,11"
	got, err := ParseCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	mine, err := RowsForGroup(got, "g1")
	if err != nil {
		t.Fatal(err)
	}
	want := []FileRow{
		{Group: "g1", Topic: "orders", Partition: 0, Offset: 10, Line: 1},
		{Group: "g1", Topic: "orders", Partition: 1, Offset: 11, Line: 3},
	}
	if !reflect.DeepEqual(mine, want) {
		t.Fatalf("RowsForGroup = %+v, want %+v", mine, want)
	}
	_, err = RowsForGroup(got, "g3")
	if err == nil || err.Error() != `the offsets file has no rows for group "g3"; it has rows for "g1", "g2"` {
		t.Fatalf("RowsForGroup(g3) = %v", err)
	}
}

func TestParseCSVErrors(t *testing.T) {
	in := strings.Join([]string{
		"orders,0,10",                    // 1 ok
		"orders,x,10",                    // 2 bad partition
		"orders,1,ten",                   // 3 bad offset
		"orders,2",                       // 4 too few fields
		"g,orders,3,1",                   // 5 four fields in a three-field file
		"orders,-1,5",                    // 6 negative partition
		"orders,4,-5",                    // 7 negative offset
		"bad topic,5,1",                  // 8 bad topic
		"orders,0,11",                    // 9 repeats line 1
		"orders,6,1,2,3",                 // 10 too many fields
		",7,1",                           // 11 empty topic
		"orders,8,",                      // 12 missing offset
		"orders,9,1e3",                   // 13 not a whole number
		"orders,10,99999999999999999999", // 14 too large
		"orders",                         // 15 one field
	}, "\n")
	_, err := ParseCSV(strings.NewReader(in))
	var ce *CSVError
	if !errors.As(err, &ce) {
		t.Fatalf("ParseCSV = %v, want a *CSVError", err)
	}
	want := []LineError{
		{2, `partition "x" is not a non-negative whole number`},
		{3, `offset "ten" is not a non-negative whole number`},
		{4, "2 fields; expected 3 (topic,partition,offset) or 4 (group,topic,partition,offset)"},
		{5, "4 fields, but line 1 has 3: a file is either all topic,partition,offset or all group,topic,partition,offset"},
		{6, `partition "-1" is not a non-negative whole number`},
		{7, `offset "-5" is not a non-negative whole number`},
		{8, "the topic name contains ' '; topic names use only letters, digits, '.', '_' and '-'"},
		{9, "partition orders/0 repeats line 1"},
		{10, "5 fields; expected 3 (topic,partition,offset) or 4 (group,topic,partition,offset)"},
		{11, "the topic name is empty"},
		{12, "the offset is missing"},
		{13, `offset "1e3" is not a non-negative whole number`},
		{14, `offset "99999999999999999999" is too large`},
		{15, "1 field; expected 3 (topic,partition,offset) or 4 (group,topic,partition,offset)"},
	}
	if !reflect.DeepEqual(ce.Lines, want) {
		t.Fatalf("lines:\n got %+v\nwant %+v", ce.Lines, want)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "14 bad lines (") || !strings.Contains(msg, "\n  line 2: ") || !strings.Contains(msg, CSVFormat) {
		t.Fatalf("message: %s", msg)
	}
}

func TestParseCSVHeaderHint(t *testing.T) {
	_, err := ParseCSV(strings.NewReader("topic,partition,offset\norders,0,1\n"))
	if err == nil || !strings.Contains(err.Error(), "line 1: partition \"partition\" is not a non-negative whole number (offsets files have no header line)") {
		t.Fatalf("ParseCSV with a header = %v", err)
	}
}

func TestParseCSVManyErrors(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 25; i++ {
		b.WriteString("orders,x,1\n")
	}
	_, err := ParseCSV(strings.NewReader(b.String()))
	var ce *CSVError
	if !errors.As(err, &ce) || len(ce.Lines) != maxCSVErrors || ce.More != 5 {
		t.Fatalf("ParseCSV = %v", err)
	}
	if !strings.HasPrefix(err.Error(), "25 bad lines") || !strings.HasSuffix(err.Error(), "\n  and 5 more") {
		t.Fatalf("message: %s", err)
	}
}

func TestParseCSVEmptyAndLong(t *testing.T) {
	if _, err := ParseCSV(strings.NewReader("\n \n")); err == nil || !strings.Contains(err.Error(), "has no offsets") {
		t.Errorf("empty file: %v", err)
	}
	long := "orders,0,1\n" + strings.Repeat("x", maxCSVLine+10) + "\n"
	if _, err := ParseCSV(strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "line 2: longer than") {
		t.Errorf("long line: %v", err)
	}
	if _, err := ParseCSV(iotest.ErrReader(errors.New("disk on fire"))); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("read error: %v", err)
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	rows := []FileRow{
		{Topic: "orders", Partition: 0, Offset: 10},
		{Topic: "orders", Partition: 1, Offset: 0},
		{Topic: "pay.ments", Partition: 12, Offset: 9223372036854775807},
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, rows, false); err != nil {
		t.Fatal(err)
	}
	if b.String() != "orders,0,10\norders,1,0\npay.ments,12,9223372036854775807\n" {
		t.Fatalf("WriteCSV = %q", b.String())
	}
	back, err := ParseCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		back[i].Line = 0
	}
	if !reflect.DeepEqual(back, rows) {
		t.Fatalf("round trip = %+v", back)
	}

	b.Reset()
	grouped := []FileRow{{Group: "g1", Topic: "t", Partition: 0, Offset: 1}}
	if err := WriteCSV(&b, grouped, true); err != nil || b.String() != "g1,t,0,1\n" {
		t.Fatalf("WriteCSV with groups = %q, %v", b.String(), err)
	}
	// A group with a comma, a quote or a line break is quoted (RFC 4180)
	// and reads back as the one field it is.
	b.Reset()
	odd := []FileRow{{Group: "a,b", Topic: "t", Offset: 1}, {Group: "say \"hi\"", Topic: "t", Offset: 2}, {Group: "l1\nl2,t,0,9", Topic: "t", Offset: 3}, {Group: " pad ", Topic: "t", Offset: 4}}
	if err := WriteCSV(&b, odd, true); err != nil {
		t.Fatal(err)
	}
	if want := "\"a,b\",t,0,1\n\"say \"\"hi\"\"\",t,0,2\n\"l1\nl2,t,0,9\",t,0,3\n\" pad \",t,0,4\n"; b.String() != want {
		t.Fatalf("WriteCSV of odd groups = %q, want %q", b.String(), want)
	}
	back, err = ParseCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		back[i].Line = 0
	}
	if !reflect.DeepEqual(back, odd) {
		t.Fatalf("odd groups round trip = %+v", back)
	}
	if err := WriteCSV(&b, []FileRow{{Topic: "t", Offset: -1}}, false); err == nil {
		t.Error("a row without an offset was written")
	}
}

func TestParseOffsetAndShift(t *testing.T) {
	if n, err := ParseOffset(" 42 "); err != nil || n != 42 {
		t.Errorf("ParseOffset(42) = %d, %v", n, err)
	}
	for _, s := range []string{"", "abc", "-1", "4.2", "1e9"} {
		if _, err := ParseOffset(s); err == nil || !strings.HasPrefix(err.Error(), "invalid offset: ") {
			t.Errorf("ParseOffset(%q) = %v", s, err)
		}
	}
	for s, want := range map[string]int64{"-100": -100, "+5": 5, "7": 7, "0": 0} {
		if n, err := ParseShift(s); err != nil || n != want {
			t.Errorf("ParseShift(%q) = %d, %v", s, n, err)
		}
	}
	for _, s := range []string{"", "x", "--1", "+-1", "1.5", "99999999999999999999"} {
		if _, err := ParseShift(s); err == nil || !strings.HasPrefix(err.Error(), "invalid shift ") {
			t.Errorf("ParseShift(%q) = %v", s, err)
		}
	}
}

// TestCSVForgedRow: a topic named "inj\nplain,0,0" (a hostile broker can
// name one) is written as one quoted field and reads back as one row,
// refused for its name on its own line, never as a forged second row.
func TestCSVForgedRow(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, []FileRow{{Topic: "inj\nplain,0,0", Partition: 1, Offset: 5}, {Topic: "orders", Partition: 0, Offset: 7}}, false); err != nil {
		t.Fatal(err)
	}
	if want := "\"inj\nplain,0,0\",1,5\norders,0,7\n"; b.String() != want {
		t.Fatalf("WriteCSV = %q, want %q", b.String(), want)
	}
	_, err := ParseCSV(bytes.NewReader(b.Bytes()))
	want := "1 bad line (" + CSVFormat + "):\n  line 1: the topic name contains '\\n'; topic names use only letters, digits, '.', '_' and '-'"
	if err == nil || err.Error() != want {
		t.Fatalf("ParseCSV = %v, want %q", err, want)
	}
	if got := SplitCSVRecords(b.String()); len(got) != 2 || got[0] != "\"inj\nplain,0,0\",1,5" {
		t.Fatalf("SplitCSVRecords = %q", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"\"orders\"x,0,1\n", "line 1: text after the closing quote of field 1; quote a whole field, and double a quote inside it"},
		{"or\"ders,0,1\n", "line 1: a quote inside the unquoted field 1; quote the whole field and double the quote"},
		{"orders,0,1\n\"open,0,1\n", "line 2: a quoted field is never closed"},
	} {
		_, err := ParseCSV(strings.NewReader(tc.in))
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("ParseCSV(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	rows, err := ParseCSV(strings.NewReader(" \"orders\" , 0 , 1 \r\n"))
	if err != nil || len(rows) != 1 || rows[0].Topic != "orders" || rows[0].Offset != 1 {
		t.Fatalf("a quoted plain name: %+v, %v", rows, err)
	}
}
