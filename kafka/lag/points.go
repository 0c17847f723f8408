package lag

import "time"

// Point is one poll of a group or a partition, for charts.
type Point struct {
	Time time.Time
	// Lag is kafka.NoOffset when unknown.
	Lag     int64
	TimeLag TimeLag
}

// SampleTimeLags appends, for each sample, its lag and its time lag as the
// History estimates the latest one (timeLagAt), over a table built from the
// samples themselves: the highest log end known up to each sample (a dip
// from a lagging replica does not move it back) with the sample's time,
// from the first sample with a known log end. The table holds every sample,
// so a commit the log end had already passed at the oldest sample is at
// least as old as that sample (a lower bound, never extrapolated). It runs
// in O(n log n) for n samples, a bounded ring, and allocates nothing beyond
// dst for up to 64 samples.
func SampleTimeLags(ss []Sample, dst []Point) []Point {
	var buf [128]int64
	pts := buf[:0]
	top := int64(-1)
	for _, s := range ss {
		top = max(top, s.LogEnd)
		if top >= 0 {
			pts = append(pts, top, s.Time.UnixNano())
		}
	}
	tb := pointTable{pts: pts, ring: max(1, len(pts)/2), n: len(pts) / 2}
	for _, s := range ss {
		dst = append(dst, Point{
			Time:    s.Time,
			Lag:     s.Lag,
			TimeLag: timeLagAt(&tb, s.Committed, s.LogEnd, s.Time.UnixNano()),
		})
	}
	return dst
}
