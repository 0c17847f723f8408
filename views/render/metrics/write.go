package metrics

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// appendFamilies writes the families with samples as expfmt's
// text (om false) or OpenMetrics 1.0 encoder does: the groups' families
// hold hundreds of thousands of samples, which this writes without a
// client_model message each.
func appendFamilies(b []byte, fs []*family, om bool) []byte {
	for _, f := range fs {
		if f.len() == 0 {
			continue
		}
		b = appendHeader(b, f, om)
		b = appendSamples(b, f, 0, f.len(), om)
	}
	return b
}

// appendHeader writes a family's HELP and TYPE lines.
func appendHeader(b []byte, f *family, om bool) []byte {
	// OpenMetrics names a counter's family without its _total.
	family := f.name
	if om && f.typ == dto.MetricType_COUNTER {
		family = strings.TrimSuffix(family, "_total")
	}
	b = append(b, "# HELP "...)
	b = append(b, family...)
	b = append(b, ' ')
	b = appendEscaped(b, f.help, om)
	b = append(b, "\n# TYPE "...)
	b = append(b, family...)
	return append(b, typeName(f.typ)...)
}

// appendSamples writes samples [lo,hi) of f, a line each.
func appendSamples(b []byte, f *family, lo, hi int, om bool) []byte {
	k := len(f.labels)
	for i := lo; i < hi; i++ {
		v := f.samples[i]
		b = append(b, f.name...)
		for j, l := range f.labels {
			if j == 0 {
				b = append(b, '{')
			} else {
				b = append(b, ',')
			}
			b = append(b, l...)
			b = append(b, '=', '"')
			b = appendEscaped(b, f.vals[i*k+j], true)
			b = append(b, '"')
		}
		if b64, ok := f.exact[i]; ok {
			b = append(b, ',')
			b = append(b, ExactGroupLabel...)
			b = append(b, '=', '"')
			b = append(b, b64...)
			b = append(b, '"')
		}
		if k > 0 {
			b = append(b, '}')
		}
		b = append(b, ' ')
		b = appendFloat(b, v, om)
		b = append(b, '\n')
	}
	return b
}

func typeName(t dto.MetricType) string {
	if t == dto.MetricType_COUNTER {
		return " counter\n"
	}
	return " gauge\n"
}

// appendEscaped escapes a backslash and a line feed, and a double quote
// when quote is set (label values; OpenMetrics's HELP too).
func appendEscaped(b []byte, s string, quote bool) []byte {
	if !strings.ContainsAny(s, "\\\n\"") {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '"' && quote:
			b = append(b, '\\', '"')
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendFloat writes v as expfmt does: the shortest exact form, 1 and 0
// and -1 bare in the text format and with ".0" in OpenMetrics, which
// also marks every whole number so.
func appendFloat(b []byte, v float64, om bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, +1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'g', -1, 64)
	if om && !bytes.ContainsAny(b[start:], "e.") {
		b = append(b, '.', '0')
	}
	return b
}
