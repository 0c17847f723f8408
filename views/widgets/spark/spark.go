// Package spark draws sparklines: a trend in a few characters, so that a
// table row can show whether a group's lag is growing or shrinking.
package spark

import "strings"

// Level is the block a lag draws as, the same scale on every row: 0 for no
// lag, then one level per decimal digit (1-9 is 1, 10-99 is 2, 100-999 is
// 3, ...), the top level holding everything above. top is the highest
// level (len(levels)-1). A steady lag of 8 therefore sits low on every row
// and a lag of 3,818 four levels up, whatever else either row shows; a lag
// drawn a level higher is ten times larger.
func Level(v int64, top int) int {
	lvl := 0
	for ; v > 0 && lvl < top; v /= 10 {
		lvl++
	}
	return lvl
}

// Write draws the last width values of series to b, right-aligned (older
// values missing on the left are blanks), each at its Level. Negative
// values (unknown lag) draw as blanks. levels are the glyphs from lowest
// to highest. A trend needs two known values: with fewer, Write draws
// nothing and reports false, so a single poll never reads as a trend.
func Write(b *strings.Builder, series []int64, width int, levels []rune) bool {
	if width <= 0 || len(levels) == 0 {
		return false
	}
	if len(series) > width {
		series = series[len(series)-width:]
	}
	known := 0
	for _, v := range series {
		if v >= 0 {
			known++
		}
	}
	if known < 2 {
		return false
	}
	for i := len(series); i < width; i++ {
		b.WriteByte(' ')
	}
	top := len(levels) - 1
	for _, v := range series {
		if v < 0 {
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(levels[Level(v, top)])
	}
	return true
}

// String is Write into a new string ("" when Write draws nothing).
func String(series []int64, width int, levels []rune) string {
	var b strings.Builder
	Write(&b, series, width, levels)
	return b.String()
}

// Bands describes the scale for a legend: the lags each level stands for,
// lowest first ("0", "1-9", "10-99", ..., with "1k+" style for the top).
func Bands(levels int) []string {
	out := make([]string, 0, levels)
	if levels <= 0 {
		return out
	}
	out = append(out, "0")
	lo := int64(1)
	for i := 1; i < levels; i++ {
		if i == levels-1 {
			out = append(out, short(lo)+"+")
			break
		}
		out = append(out, short(lo)+"-"+short(lo*10-1))
		lo *= 10
	}
	return out
}

// short writes a band's bound: 1, 10, 100, then 1k, 10k, 100k, 1M with
// the bound below each written out in full digits (999, 9999 as 9,999).
func short(v int64) string {
	switch {
	case v >= 1_000_000 && v%1_000_000 == 0:
		return itoa(v/1_000_000) + "M"
	case v >= 1000 && v%1000 == 0:
		return itoa(v/1000) + "k"
	}
	return grouped(v)
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for ; v > 0; v /= 10 {
		i--
		buf[i] = byte('0' + v%10)
	}
	return string(buf[i:])
}

// grouped writes v with a comma every three digits.
func grouped(v int64) string {
	s := itoa(v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
