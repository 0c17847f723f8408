package reset

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The fuzz targets check properties that must hold for any input: no panic,
// and whatever is accepted round-trips or stays within its stated bounds.
// Their seeds run under plain `go test`.

func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{
		"orders,0,10\norders,1,0\n",
		"g,orders,0,10\n",
		"topic,partition,offset\n",
		"orders,x,1\norders,1\n\r\n",
		"a,1,2\nb,c,1,2\n",
		",,,\n",
		"orders,0,9223372036854775807\n",
		"orders,0,1\norders,0,2\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		rows, err := ParseCSV(strings.NewReader(in))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if len(rows) == 0 {
			t.Fatal("accepted a file without rows")
		}
		withGroup := rows[0].Group != ""
		seen := make(map[string]bool)
		for _, r := range rows {
			if r.Partition < 0 || r.Offset < 0 || r.Line < 1 || ValidTopicName(r.Topic) != "" || (r.Group != "") != withGroup {
				t.Fatalf("accepted a bad row %+v", r)
			}
			k := r.Group + "\x00" + r.TP().String()
			if seen[k] {
				t.Fatalf("accepted a repeated partition %+v", r)
			}
			seen[k] = true
		}
		for _, r := range rows {
			if strings.ContainsAny(r.Group, "\r") {
				// A group name may hold a carriage return, which
				// the file format cannot write back.
				return
			}
		}
		var b bytes.Buffer
		if err := WriteCSV(&b, rows, withGroup); err != nil {
			t.Fatalf("WriteCSV of parsed rows: %v", err)
		}
		back, err := ParseCSV(&b)
		if err != nil {
			t.Fatalf("re-parse %q: %v", b.String(), err)
		}
		if len(back) != len(rows) {
			t.Fatalf("round trip lost rows: %d -> %d", len(rows), len(back))
		}
		for i := range back {
			a, b := back[i], rows[i]
			if a.Group != b.Group || a.Topic != b.Topic || a.Partition != b.Partition || a.Offset != b.Offset {
				t.Fatalf("round trip changed row %d: %+v -> %+v", i, b, a)
			}
		}
	})
}

func FuzzParseDatetime(f *testing.F) {
	for _, s := range []string{
		"2024-03-01T09:30:00.000",
		"2024-03-01T09:30:00.123Z",
		"2024-03-01T09:30:00.123+01:00",
		"2024-03-01T09:30:00.123-0130",
		"2024-03-01T09:30:00Z",
		"2024-02-30T09:30:00Z",
		"0000-01-01T00:00:00Z",
		"9999-12-31T23:59:59.999999999+18:00",
		"yesterday",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseDatetime(in)
		if err != nil {
			if !strings.Contains(err.Error(), DatetimeFormats) {
				t.Fatalf("error without the accepted formats: %v", err)
			}
			return
		}
		// Whatever is accepted prints in Kafka's format and reads back
		// to the same millisecond.
		if y := got.UTC().Year(); y < 0 || y > 9999 {
			// A zone can push 0000-01-01 or 9999-12-31 out of the
			// four-digit years the format has.
			return
		}
		back, err := ParseDatetime(FormatTime(got))
		if err != nil {
			t.Fatalf("FormatTime(%v) = %q does not parse: %v", got, FormatTime(got), err)
		}
		if !back.Equal(got.Truncate(time.Millisecond)) {
			t.Fatalf("round trip %q: %v -> %v", in, got, back)
		}
	})
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"PT30M", "P1DT2H3M4.5S", "PT0,25S", "90m", "1h30m", "-5m", "P", "PT", "P1W", "P99999999999D", "1.5h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseDuration(in)
		if err != nil {
			if !strings.Contains(err.Error(), DurationFormats) {
				t.Fatalf("error without the accepted formats: %v", err)
			}
			return
		}
		if d < 0 {
			t.Fatalf("ParseDuration(%q) = %s: negative", in, d)
		}
	})
}

func FuzzParseTopicScope(f *testing.F) {
	for _, s := range []string{"orders", "orders:0", "orders:0,2", "orders:0-3,5", "orders:", ":1", "a:-1", "a:3-1", "a:2147483647", "a b:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ts, err := ParseTopicScope(in)
		if err != nil {
			if !strings.Contains(err.Error(), TopicScopeFormat) {
				t.Fatalf("error without the accepted forms: %v", err)
			}
			return
		}
		if ValidTopicName(ts.Topic) != "" {
			t.Fatalf("accepted bad topic %q", ts.Topic)
		}
		for i, p := range ts.Partitions {
			if p < 0 || (i > 0 && p <= ts.Partitions[i-1]) {
				t.Fatalf("partitions not sorted, distinct and non-negative: %v", ts.Partitions)
			}
		}
		// The canonical form reads back the same.
		back, err := ParseTopicScope(ts.String())
		if err != nil || back.Topic != ts.Topic || len(back.Partitions) != len(ts.Partitions) || (back.Partitions == nil) != (ts.Partitions == nil) {
			t.Fatalf("round trip %q -> %q: %+v, %v", in, ts.String(), back, err)
		}
	})
}
