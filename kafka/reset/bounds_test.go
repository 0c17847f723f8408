package reset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/config"
)

// A spreadsheet's UTF-8 export starts with a byte-order mark; it is not
// part of the first topic's name.
func TestReadCSVStripsByteOrderMark(t *testing.T) {
	got, err := ReadCSV(context.Background(), strings.NewReader("\ufefforders,0,10\r\norders,1,11\r\n"), "export.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []FileRow{
		{Topic: "orders", Partition: 0, Offset: 10, Line: 1},
		{Topic: "orders", Partition: 1, Offset: 11, Line: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %+v, want %+v", got, want)
	}
	// Only at the start: elsewhere it is still an error.
	if _, err := ReadCSV(context.Background(), strings.NewReader("orders,0,10\n\ufefforders,1,11\n"), "x.csv"); err == nil {
		t.Fatal("a byte-order mark on line 2 was accepted")
	}
}

// An offsets file over the cap is refused, without being read when it is a
// regular file.
func TestReadCSVFileRefusesAFileOverTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.csv")
	if err := os.WriteFile(path, []byte("orders,0,10\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, config.MaxCSVBytes+1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	_, err := ReadCSVFile(context.Background(), path)
	var tl *config.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("ReadCSVFile of 256 MiB + 1: %v, want a *config.TooLargeError", err)
	}
	want := "offsets file " + path + " is larger than 256 MiB, the most kgroups reads from one: " + csvTooLargeHint
	if err.Error() != want {
		t.Fatalf("error %q\nwant %q", err, want)
	}
}

// A device that never ends is refused, not read to its end (the cap on
// streams is tested in config).
func TestReadCSVRefusesAnEndlessDevice(t *testing.T) {
	if _, err := ReadCSVFile(context.Background(), "/dev/zero"); err == nil {
		t.Fatal("ReadCSVFile(/dev/zero) succeeded")
	}
}

// endlessCSV is an offsets file that never ends (like /dev/urandom: every
// line bad); it cancels its context after some reads, as Ctrl+C would.
type endlessCSV struct {
	reads  int
	cancel context.CancelFunc
}

func (e *endlessCSV) Read(p []byte) (int, error) {
	e.reads++
	if e.reads == 5 {
		e.cancel()
	}
	return copy(p, strings.Repeat("\x01\x02,\xff\n", len(p)/5+1)), nil
}

func TestReadCSVStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := ReadCSV(ctx, &endlessCSV{cancel: cancel}, "/dev/urandom")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadCSV of an endless input after cancel: %v, want context.Canceled", err)
	}
}

// A file of 100,000 rows naming partitions that do not exist lists the
// first 20 and counts the rest.
func TestPartitionErrorsAreCapped(t *testing.T) {
	var b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&b, "t,%d,5\n", 1000+i)
	}
	rows, err := ReadCSV(context.Background(), strings.NewReader(b.String()), "big.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(fixture(), Scenario{Kind: FromFile, Source: "big.csv", Rows: rows}, Scope{})
	if err == nil {
		t.Fatal("Build accepted 100,000 partitions that do not exist")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d error lines, want 20 and the count of the rest:\n%s", len(lines), strings.Join(lines[:min(len(lines), 30)], "\n"))
	}
	if want := `line 1: topic "t" has 3 partitions (0-2); partition 1000 does not exist`; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if want := `line 20: topic "t" has 3 partitions (0-2); partition 1019 does not exist`; lines[19] != want {
		t.Errorf("20th line %q, want %q", lines[19], want)
	}
	if want := "and 99980 more"; lines[20] != want {
		t.Errorf("last line %q, want %q", lines[20], want)
	}
}

// Bad lines of the file itself are capped the same way.
func TestCSVErrorsAreCapped(t *testing.T) {
	bad := strings.Repeat("orders,x,1\n", 100_000)
	_, err := ReadCSV(context.Background(), strings.NewReader(bad), "bad.csv")
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 22 || !strings.HasPrefix(lines[0], "100000 bad lines") || lines[21] != "  and 99980 more" {
		t.Fatalf("%d lines, first %q, last %q; want a heading, 20 lines and \"  and 99980 more\"", len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestListedIsCapped(t *testing.T) {
	var names []string
	for i := range 25 {
		names = append(names, fmt.Sprint(i))
	}
	want := "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 and 5 more"
	if got := listed(names); got != want {
		t.Fatalf("listed = %q, want %q", got, want)
	}
	if got := listed(names[:3]); got != "0, 1, 2" {
		t.Fatalf("listed = %q", got)
	}
}
