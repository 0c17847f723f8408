package reset

import (
	"strings"
	"testing"
	"time"
)

func TestParseDatetime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		// Kafka's format, every zone spelling.
		{"2024-03-01T09:30:00.000", utc(2024, 3, 1, 9, 30, 0, 0)},
		{"2024-03-01T09:30:00.123", utc(2024, 3, 1, 9, 30, 0, 123e6)},
		{"2024-03-01T09:30:00.123Z", utc(2024, 3, 1, 9, 30, 0, 123e6)},
		{"2024-03-01T09:30:00.123+01:00", utc(2024, 3, 1, 8, 30, 0, 123e6)},
		{"2024-03-01T09:30:00.123+0100", utc(2024, 3, 1, 8, 30, 0, 123e6)},
		{"2024-03-01T09:30:00.123-0530", utc(2024, 3, 1, 15, 0, 0, 123e6)},
		// RFC 3339, with and without fractional seconds.
		{"2024-03-01T09:30:00Z", utc(2024, 3, 1, 9, 30, 0, 0)},
		{"2024-03-01T09:30:00+02:00", utc(2024, 3, 1, 7, 30, 0, 0)},
		{"2024-03-01T09:30:00.5Z", utc(2024, 3, 1, 9, 30, 0, 5e8)},
		{"2024-03-01T09:30:00.123456789Z", utc(2024, 3, 1, 9, 30, 0, 123456789)},
		{"2024-03-01T09:30:00", utc(2024, 3, 1, 9, 30, 0, 0)},
		{" 2024-02-29T23:59:59.999Z ", utc(2024, 2, 29, 23, 59, 59, 999e6)},
		// Day rolls back across midnight with a positive zone.
		{"2024-01-01T00:30:00.000+01:00", utc(2023, 12, 31, 23, 30, 0, 0)},
	}
	for _, tt := range tests {
		got, err := ParseDatetime(tt.in)
		if err != nil {
			t.Errorf("ParseDatetime(%q): %v", tt.in, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("ParseDatetime(%q) = %s, want %s", tt.in, got.UTC(), tt.want)
		}
	}
}

func TestParseDatetimeErrors(t *testing.T) {
	tests := []struct{ in, why string }{
		{"", ""},
		{"yesterday", ""},
		{"2024-03-01", ""},
		{"2024-03-01 09:30:00", ""},
		{"2024-03-01T09:30", ""},
		{"2024-3-1T09:30:00", ""},
		{"2024-03-01T09:30:00.", ""},
		{"2024-03-01T09:30:00.1234567890Z", ""},
		{"2024-03-01T09:30:00+1", ""},
		{"2024-03-01T09:30:00+01:00:00", ""},
		{"1709285400000", ""},
		{"2024-13-01T09:30:00Z", "month 13 is out of range"},
		{"2024-00-01T09:30:00Z", "month 00 is out of range"},
		{"2023-02-29T09:30:00Z", "day 29 does not exist in 2023-02"},
		{"2024-04-31T09:30:00Z", "day 31 does not exist in 2024-04"},
		{"2024-04-00T09:30:00Z", "day 00 does not exist in 2024-04"},
		{"2024-04-01T24:00:00Z", "time 24:00:00 is out of range"},
		{"2024-04-01T23:60:00Z", "time 23:60:00 is out of range"},
		{"2024-04-01T23:59:60Z", "time 23:59:60 is out of range"},
		{"2024-04-01T23:59:59+19:00", "zone offset +19:00 is out of range"},
		{"2024-04-01T23:59:59+0160", "zone offset +0160 is out of range"},
	}
	for _, tt := range tests {
		_, err := ParseDatetime(tt.in)
		if err == nil {
			t.Errorf("ParseDatetime(%q) accepted it", tt.in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, `invalid datetime "`+tt.in+`"`) || !strings.Contains(msg, DatetimeFormats) {
			t.Errorf("ParseDatetime(%q) error does not quote the input and the accepted formats: %s", tt.in, msg)
		}
		if tt.why != "" && !strings.Contains(msg, tt.why) {
			t.Errorf("ParseDatetime(%q) error %q does not say %q", tt.in, msg, tt.why)
		}
	}
}

func TestFormatTimeRoundTrip(t *testing.T) {
	in := time.Date(2024, 3, 1, 9, 30, 0, 123e6, time.FixedZone("x", 3600))
	s := FormatTime(in)
	if s != "2024-03-01T08:30:00.123Z" {
		t.Fatalf("FormatTime = %q", s)
	}
	back, err := ParseDatetime(s)
	if err != nil || !back.Equal(in) {
		t.Fatalf("ParseDatetime(FormatTime) = %v, %v; want %v", back, err, in)
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"PT0S", 0},
		{"PT30M", 30 * time.Minute},
		{"PT1H", time.Hour},
		{"P1D", 24 * time.Hour},
		{"P1DT2H3M4S", 26*time.Hour + 3*time.Minute + 4*time.Second},
		{"PT1.5S", 1500 * time.Millisecond},
		{"PT0,25S", 250 * time.Millisecond},
		{"PT0.000000001S", time.Nanosecond},
		{"pt15m", 15 * time.Minute},
		{"P2DT0.5S", 48*time.Hour + 500*time.Millisecond},
		{"PT36H", 36 * time.Hour},
		{"90m", 90 * time.Minute},
		{"1h30m", 90 * time.Minute},
		{"45s", 45 * time.Second},
		{"1.5h", 90 * time.Minute},
		{"0s", 0},
		{" PT5M ", 5 * time.Minute},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if err != nil {
			t.Errorf("ParseDuration(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseDuration(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseDurationErrors(t *testing.T) {
	tests := []struct{ in, why string }{
		{"", "it is empty"},
		{"P", ""},
		{"PT", ""},
		{"P1DT", ""},
		{"P1W", ""},
		{"P1Y", ""},
		{"PT1.5M", ""},
		{"PT-1H", ""},
		{"-PT1H", ""},
		{"PT1H2H", ""},
		{"P1H", ""},
		{"90", ""},
		{"ninety minutes", ""},
		{"1d", ""},
		{"-5m", "cannot be negative"},
		{"P999999999999999999999D", "too long"},
		{"P200000D", "too long"},
		{"PT9223372036854775807S", "too long"},
	}
	for _, tt := range tests {
		_, err := ParseDuration(tt.in)
		if err == nil {
			t.Errorf("ParseDuration(%q) accepted it", tt.in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, `invalid duration "`+tt.in+`"`) || !strings.Contains(msg, DurationFormats) {
			t.Errorf("ParseDuration(%q) error does not quote the input and the accepted formats: %s", tt.in, msg)
		}
		if tt.why != "" && !strings.Contains(msg, tt.why) {
			t.Errorf("ParseDuration(%q) error %q does not say %q", tt.in, msg, tt.why)
		}
	}
}
