package format

import (
	"math"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
)

func TestUTF8Locale(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"LANG": "en_US.UTF-8"}, true},
		{map[string]string{"LANG": "en_US.utf8"}, true},
		{map[string]string{"LANG": "C"}, false},
		// LC_ALL wins over everything, LC_CTYPE over LANG.
		{map[string]string{"LC_ALL": "C", "LC_CTYPE": "en_US.UTF-8", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "de_DE.UTF-8", "LANG": "C"}, true},
		{map[string]string{"LC_ALL": "C.UTF-8"}, true},
	}
	for _, tt := range tests {
		got := UTF8Locale(func(k string) string { return tt.env[k] })
		if got != tt.want {
			t.Errorf("UTF8Locale(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}

func TestSpanAndTook(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{0, "0s"},
		{59*time.Second + 900*time.Millisecond, "59s"},
		{2*time.Minute + 5*time.Second, "2m05s"},
		{3*time.Hour + 10*time.Minute + 59*time.Second, "3h10m"},
	}
	for _, tt := range tests {
		if got := Span(tt.d); got != tt.want {
			t.Errorf("Span(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
	if got := Took(1234 * time.Millisecond); got != "1234ms" {
		t.Errorf("Took = %q", got)
	}
	if got := Took(75 * time.Second); got != "1m15s" {
		t.Errorf("Took = %q", got)
	}
}

func TestTimeLagText(t *testing.T) {
	tests := []struct {
		tl          lag.TimeLag
		utf8, ascii string
	}{
		{lag.TimeLag{}, "-", "-"},
		{lag.TimeLag{Kind: lag.TimeLagCaughtUp}, "0s", "0s"},
		{lag.TimeLag{Seconds: 12.9, Kind: lag.TimeLagInterpolated}, "12s", "12s"},
		{lag.TimeLag{Seconds: 184, Kind: lag.TimeLagAtLeast}, "≥3m04s", ">=3m04s"},
		{lag.TimeLag{Seconds: 7500, Kind: lag.TimeLagAtLeast}, "≥2h05m", ">=2h05m"},
		{lag.TimeLag{Seconds: 0.4, Kind: lag.TimeLagExact}, "=0s", "=0s"},
		{lag.TimeLag{Seconds: 3*86400 + 4*3600 + 59, Kind: lag.TimeLagInterpolated}, "3d04h", "3d04h"},
		{lag.TimeLag{Seconds: math.Inf(1), Kind: lag.TimeLagInterpolated}, "106751d23h", "106751d23h"},
		{lag.TimeLag{Seconds: -3, Kind: lag.TimeLagExact}, "=0s", "=0s"},
	}
	for _, tt := range tests {
		if got := TimeLag(tt.tl, AtLeastUnicode); got != tt.utf8 {
			t.Errorf("TimeLag(%+v) = %q, want %q", tt.tl, got, tt.utf8)
		}
		if got := TimeLag(tt.tl, AtLeastASCII); got != tt.ascii {
			t.Errorf("ASCII TimeLag(%+v) = %q, want %q", tt.tl, got, tt.ascii)
		}
	}
	if got := Span(25 * time.Hour); got != "1d01h" {
		t.Errorf("Span(25h) = %q", got)
	}
}

func TestRateText(t *testing.T) {
	tests := []struct {
		r    float64
		want string
	}{
		{lag.UnknownRate, "-"}, {math.NaN(), "-"}, {0, "0.0"}, {0.25, "0.2"}, {5, "5.0"}, {9.94, "9.9"},
		{9.96, "10"}, {312.4, "312"}, {999.4, "999"}, {999.6, "1.0k"}, {1234, "1.2k"}, {56_789, "57k"},
		{999_400, "999k"}, {2_500_000, "2.5M"}, {3e9, "3.0G"}, {4e12, "4T"},
	}
	for _, tt := range tests {
		if got := Rate(tt.r); got != tt.want {
			t.Errorf("Rate(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestCatchUpText(t *testing.T) {
	tests := []struct {
		c    lag.CatchUp
		want string
	}{
		{lag.CatchUp{}, ""},
		{lag.CatchUp{State: lag.CaughtUp}, "caught up"},
		{lag.CatchUp{State: lag.KeepingUp}, "keeping up"},
		{lag.CatchUp{State: lag.CatchingUp, Seconds: 245}, "catching up in 4m05s"},
		{lag.CatchUp{State: lag.CatchingUp, Seconds: lag.MaxCatchUpSeconds}, "catching up in 1d00h"},
		{lag.CatchUp{State: lag.CatchingUp, Seconds: lag.MaxCatchUpSeconds, Capped: true}, "catching up in more than a day"},
		// Never Go's largest duration (106751d23h), whatever the figure.
		{lag.CatchUp{State: lag.CatchingUp, Seconds: 1e300}, "catching up in more than a day"},
		{lag.CatchUp{State: lag.FallingBehind, Behind: 12}, "falling behind 12 msg/s"},
		{lag.CatchUp{State: lag.FallingBehind}, "not catching up"},
		{lag.CatchUp{State: lag.FallingBehind, Behind: 0.04}, "not catching up"},
		{lag.CatchUp{State: lag.FallingBehind, Behind: 0.05}, "falling behind 0.1 msg/s"},
	}
	for _, tt := range tests {
		if got := CatchUp(tt.c); got != tt.want {
			t.Errorf("CatchUp(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestMoved(t *testing.T) {
	for _, tt := range []struct {
		moved, rejoined int
		want            string
	}{
		{0, 0, "0 partitions changed process"},
		{1, 0, "1 partition changed process"},
		{4, 0, "4 partitions changed process"},
		{0, 2, "0 partitions changed process, 2 members rejoined with new ids"},
		{3, 1, "3 partitions changed process, 1 member rejoined with a new id"},
	} {
		if got := Moved(tt.moved, tt.rejoined); got != tt.want {
			t.Errorf("Moved(%d, %d) = %q, want %q", tt.moved, tt.rejoined, got, tt.want)
		}
	}
}

// TestLasted: durations next to ages use the ages' units, with tenths of a
// second below a minute; never milliseconds.
func TestLasted(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0.0s"},
		{0, "0.0s"},
		{40 * time.Millisecond, "0.0s"},
		{50 * time.Millisecond, "0.1s"},
		{800 * time.Millisecond, "0.8s"},
		{5039 * time.Millisecond, "5.0s"},
		{12500 * time.Millisecond, "12.5s"},
		{59940 * time.Millisecond, "59.9s"},
		{59950 * time.Millisecond, "1m00s"},
		{12*time.Minute + 45*time.Second, "12m45s"},
		{3 * time.Hour, "3h00m"},
	} {
		if got := Lasted(tt.d); got != tt.want {
			t.Errorf("Lasted(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
