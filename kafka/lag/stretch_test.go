package lag

import (
	"fmt"
	"testing"
	"time"
)

// commitsAt feeds one partition written 2 records a second, one poll at
// each call: its commit moves at the polls whose times lags holds, to
// leave that lag in records, and stands between them.
func commitsAt(h *History, lags map[float64]int64) func(sec float64) {
	var c int64
	return func(sec float64) {
		end := int64(2 * sec)
		if lag, ok := lags[sec]; ok {
			c = end - lag
		}
		feed(h, sec, c, end)
	}
}

// TestGrowingWaitsPredictTheNext: a consumer whose waits grew 10 s, 30 s,
// 90 s may take 270 s for the next; its commit is STALL only past twice
// that (540 s after it: 675 s), not past twice its longest wait (180 s:
// 315 s), as it was before the rule. Committing at the log end each time,
// nothing says it falls behind until its time lag passes what its waits
// explain: it waits, saying why, and reads WARN once its time lag is past
// twice its rhythm where it works (535 s at 665 s). One that left more
// behind at each commit reads WARN throughout.
func TestGrowingWaitsPredictTheNext(t *testing.T) {
	stretch := fmt.Sprintf("JUDGING/%d", WaitStretch)
	for _, c := range []struct {
		name string
		lags map[float64]int64 // the lag left at each commit
		want map[float64]string
	}{
		{"at the head", map[float64]int64{0: 0, 10: 0, 40: 0, 130: 0},
			map[float64]string{320: stretch, 330: stretch, 665: "WARN/0", 675: "ERR STALL/0"}},
		{"falling behind", map[float64]int64{0: 0, 10: 10, 40: 40, 130: 130},
			map[float64]string{320: "WARN/0", 330: "WARN/0", 665: "WARN/0", 675: "ERR STALL/0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Window, cfg.MinDistance = 10, time.Second
			h := NewHistory(cfg)
			poll := commitsAt(h, c.lags)
			for sec := 0.0; sec <= 675; sec += 5 {
				poll(sec)
				want, ok := c.want[sec]
				if !ok {
					continue
				}
				v, got := verdictOf(t, h, sec)
				if got != want {
					t.Errorf("%.0fs: %s, want %s", sec, got, want)
				}
				const why = "no commit in 3m20s, past its ~1m30s, but each wait was longer than the one before: STALL after 9m unless it commits"
				if sec == 330 && want == stretch && v.Reason() != why {
					t.Errorf("330s: reason %q, want %q", v.Reason(), why)
				}
			}
		})
	}
}
