package metrics

import (
	"bytes"
	"math"
	"strconv"
	"strings"
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
	return appendFamilyHeader(b, f.name, f.help, "", f.typ, om)
}

// appendFamilyHeader writes a family's HELP, TYPE and (OpenMetrics only)
// UNIT lines. OpenMetrics names a counter's family without its _total,
// and calls a counter without one unknown.
func appendFamilyHeader(b []byte, name, help, unit string, typ MetricType, om bool) []byte {
	family, total := name, strings.HasSuffix(name, "_total")
	if om && typ == Counter && total {
		family = name[:len(name)-len("_total")]
	}
	b = append(b, "# HELP "...)
	b = append(b, family...)
	b = append(b, ' ')
	b = appendEscaped(b, help, om)
	b = append(b, "\n# TYPE "...)
	b = append(b, family...)
	switch {
	case typ == Summary:
		b = append(b, " summary\n"...)
	case typ == Gauge:
		b = append(b, " gauge\n"...)
	case om && !total:
		b = append(b, " unknown\n"...)
	default:
		b = append(b, " counter\n"...)
	}
	if om && unit != "" {
		b = append(b, "# UNIT "...)
		b = append(b, family...)
		b = append(b, ' ')
		b = appendEscaped(b, unit, true)
		b = append(b, '\n')
	}
	return b
}

// append writes f as expfmt's text (om false) or OpenMetrics 1.0
// encoder does; nothing when it has no samples.
func (f *Family) append(b []byte, om bool) []byte {
	if len(f.Samples) == 0 {
		return b
	}
	b = appendFamilyHeader(b, f.Name, f.Help, f.Unit, f.Type, om)
	for i := range f.Samples {
		s := &f.Samples[i]
		if f.Type != Summary {
			b = appendSample(b, f.Name, "", s.Labels, "", 0, om)
			b = appendFloat(b, s.Value, om)
			b = append(b, '\n')
			continue
		}
		for _, q := range s.Quantiles {
			b = appendSample(b, f.Name, "", s.Labels, "quantile", q.Quantile, om)
			b = appendFloat(b, q.Value, om)
			b = append(b, '\n')
		}
		b = appendSample(b, f.Name, "_sum", s.Labels, "", 0, om)
		b = appendFloat(b, s.Value, om)
		b = append(b, '\n')
		b = appendSample(b, f.Name, "_count", s.Labels, "", 0, om)
		if om {
			// OpenMetrics writes a count as the integer it is.
			b = strconv.AppendUint(b, s.Count, 10)
		} else {
			b = appendFloat(b, float64(s.Count), false)
		}
		b = append(b, '\n')
	}
	return b
}

// appendSample writes a sample's name, labels (and a summary's quantile
// label, when extra is set) and the space before its value.
func appendSample(b []byte, name, suffix string, labels []Label, extra string, extraValue float64, om bool) []byte {
	b = append(b, name...)
	b = append(b, suffix...)
	for j, l := range labels {
		if j == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = append(b, l.Name...)
		b = append(b, '=', '"')
		b = appendEscaped(b, l.Value, true)
		b = append(b, '"')
	}
	if extra != "" {
		if len(labels) == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = append(b, extra...)
		b = append(b, '=', '"')
		b = appendFloat(b, extraValue, om)
		b = append(b, '"')
	}
	if len(labels) > 0 || extra != "" {
		b = append(b, '}')
	}
	return append(b, ' ')
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
	case v == 0:
		// Negative zero too, as expfmt writes it.
		if om {
			return append(b, "0.0"...)
		}
		return append(b, '0')
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
