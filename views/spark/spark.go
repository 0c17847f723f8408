// Package spark draws sparklines: a trend in a few characters, so that a
// table row can show whether a group's lag is growing or shrinking.
package spark

import (
	"math"
	"strings"
)

// Write draws the last width values of series to b, right-aligned (older
// values missing on the left are blanks), scaled from 0 to the largest value
// shown but never finer than one message per level: a lag that wobbles
// between 0 and 2 stays near the floor instead of filling the cell, which on
// a screen of healthy groups would read as an alarm. Negative values
// (unknown lag) draw as blanks. levels are the glyphs from lowest to
// highest.
func Write(b *strings.Builder, series []int64, width int, levels []rune) {
	if width <= 0 || len(levels) == 0 {
		return
	}
	if len(series) > width {
		series = series[len(series)-width:]
	}
	for i := len(series); i < width; i++ {
		b.WriteByte(' ')
	}
	top := len(levels) - 1
	var hi int64
	for _, v := range series {
		hi = max(hi, v)
	}
	if hi > 0 {
		hi = max(hi, int64(top))
	}
	for _, v := range series {
		switch {
		case v < 0:
			b.WriteByte(' ')
		case hi == 0:
			b.WriteRune(levels[0])
		default:
			// Round to the nearest level, but let any lag above zero
			// leave the floor.
			lvl := int(math.Round(float64(v) / float64(hi) * float64(top)))
			if v > 0 && lvl == 0 {
				lvl = 1
			}
			b.WriteRune(levels[lvl])
		}
	}
}

// String is Write into a new string.
func String(series []int64, width int, levels []rune) string {
	var b strings.Builder
	Write(&b, series, width, levels)
	return b.String()
}
