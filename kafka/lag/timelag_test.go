package lag

import (
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// timeLagAfter feeds log ends (sec, end) for t/0 with committed offset c at
// the last poll (NoOffset before it) and returns its time lag at now.
func timeLagAfter(t *testing.T, cfg Config, ends [][2]int64, c int64, now float64) TimeLag {
	t.Helper()
	h := NewHistory(cfg)
	for i, e := range ends {
		committed := kafka.NoOffset
		if i == len(ends)-1 {
			committed = c
		}
		h.Add(snap(at(float64(e[0])), grp("g", po("t", 0, committed, e[1]))))
	}
	g, ok := h.Evaluate("g", at(now))
	if !ok {
		t.Fatal("group not found")
	}
	return g.Partitions[0].TimeLag
}

func TestTimeLag(t *testing.T) {
	steady := [][2]int64{{0, 0}, {10, 100}, {20, 200}, {30, 300}}
	tests := []struct {
		name string
		cfg  Config
		ends [][2]int64
		c    int64
		now  float64
		want TimeLag
	}{
		{
			name: "interpolated between two points",
			ends: steady, c: 150, now: 30,
			want: TimeLag{Seconds: 15, Kind: TimeLagInterpolated},
		},
		{
			name: "on a point",
			ends: steady, c: 100, now: 30,
			want: TimeLag{Seconds: 20, Kind: TimeLagInterpolated},
		},
		{
			name: "measured against the caller's now",
			ends: steady, c: 250, now: 40,
			want: TimeLag{Seconds: 15, Kind: TimeLagInterpolated},
		},
		{
			name: "uneven production",
			ends: [][2]int64{{0, 0}, {10, 40}, {20, 400}},
			c:    130, now: 20,
			// 130 lies a quarter of the way from 40 to 400: 12.5s.
			want: TimeLag{Seconds: 7.5, Kind: TimeLagInterpolated},
		},
		{
			name: "caught up is zero",
			ends: steady, c: 300, now: 45,
			want: TimeLag{Kind: TimeLagCaughtUp},
		},
		{
			name: "committed past the log end is caught up",
			ends: steady, c: 310, now: 45,
			want: TimeLag{Kind: TimeLagCaughtUp},
		},
		{
			name: "caught up on an empty partition",
			ends: [][2]int64{{0, 0}},
			c:    0, now: 5,
			want: TimeLag{Kind: TimeLagCaughtUp},
		},
		{
			name: "no commit is unknown",
			ends: steady, c: kafka.NoOffset, now: 30,
			want: TimeLag{},
		},
		{
			name: "one point is unknown",
			ends: [][2]int64{{0, 100}},
			c:    50, now: 30,
			want: TimeLag{},
		},
		{
			name: "unknown log end is unknown",
			ends: [][2]int64{{0, 0}, {10, 100}, {20, kafka.NoOffset}},
			c:    50, now: 20,
			want: TimeLag{},
		},
		{
			name: "flat run: the last time the log end was at c",
			// Points (100,0s) (100,20s) (200,30s): the 10s poll was
			// folded into the run.
			ends: [][2]int64{{0, 100}, {10, 100}, {20, 100}, {30, 200}},
			c:    100, now: 30,
			want: TimeLag{Seconds: 10, Kind: TimeLagInterpolated},
		},
		{
			name: "flat run then growth",
			ends: [][2]int64{{0, 100}, {10, 100}, {20, 100}, {30, 200}},
			c:    150, now: 30,
			want: TimeLag{Seconds: 5, Kind: TimeLagInterpolated},
		},
		{
			name: "older than the table: the oldest point's age, a lower bound",
			ends: [][2]int64{{0, 100}, {10, 200}, {20, 400}},
			c:    50, now: 20,
			// Never extrapolated at the oldest segment's rate (which
			// would say 25s): the producer may have been slower before.
			want: TimeLag{Seconds: 20, Kind: TimeLagAtLeast},
		},
		{
			name: "older than a table that grew later: a lower bound",
			ends: [][2]int64{{0, 100}, {10, 100}, {20, 100}, {30, 300}},
			c:    80, now: 30,
			// Points (100,0s) (100,20s) (300,30s).
			want: TimeLag{Seconds: 30, Kind: TimeLagAtLeast},
		},
		{
			name: "older than a flat table: a lower bound",
			ends: [][2]int64{{0, 100}, {10, 100}, {20, 100}},
			c:    50, now: 25,
			want: TimeLag{Seconds: 25, Kind: TimeLagAtLeast},
		},
		{
			name: "the table drops its oldest point when full",
			cfg:  Config{TimePoints: 3},
			ends: steady, c: 50, now: 30,
			// Points (100,10s) (200,20s) (300,30s).
			want: TimeLag{Seconds: 20, Kind: TimeLagAtLeast},
		},
		{
			name: "a log end that dips is dropped",
			// Points (100,0s) (200,10s) (300,30s): 150 at 20s dropped.
			ends: [][2]int64{{0, 100}, {10, 200}, {20, 150}, {30, 300}},
			c:    250, now: 30,
			want: TimeLag{Seconds: 10, Kind: TimeLagInterpolated},
		},
		{
			name: "a log end below the whole table restarts it",
			// Points (50,20s) (70,30s).
			ends: [][2]int64{{0, 100}, {10, 200}, {20, 50}, {30, 70}},
			c:    60, now: 30,
			want: TimeLag{Seconds: 5, Kind: TimeLagInterpolated},
		},
		{
			name: "points stamped after now clamp to zero",
			ends: steady, c: 250, now: 20,
			want: TimeLag{Seconds: 0, Kind: TimeLagInterpolated},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			if cfg == (Config{}) {
				cfg = DefaultConfig()
			}
			if got := timeLagAfter(t, cfg, tc.ends, tc.c, tc.now); got != tc.want {
				t.Errorf("time lag = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A log end that dips below the table's newest point leaves the table as it
// was; the current lag still comes from that log end.
func TestTimeLagAfterDroppedLogEnd(t *testing.T) {
	// Points (100,0s) (200,10s); 180 at 20s dropped; c=150.
	got := timeLagAfter(t, DefaultConfig(), [][2]int64{{0, 100}, {10, 200}, {20, 180}}, 150, 20)
	if want := (TimeLag{Seconds: 15, Kind: TimeLagInterpolated}); got != want {
		t.Errorf("time lag = %+v, want %+v", got, want)
	}
}

func TestTimeLagKindNames(t *testing.T) {
	for k, want := range map[TimeLagKind]string{
		TimeLagUnknown: "unknown", TimeLagCaughtUp: "caught-up", TimeLagInterpolated: "interpolated",
		TimeLagAtLeast: "at-least", TimeLagExact: "exact", TimeLagKind(99): "unknown",
	} {
		b, _ := k.MarshalText()
		if k.String() != want || string(b) != want {
			t.Errorf("kind %d = %q/%q, want %q", k, k.String(), b, want)
		}
	}
	if (TimeLag{}).Known() || !(TimeLag{Kind: TimeLagCaughtUp}).Known() {
		t.Error("Known() wrong")
	}
}
