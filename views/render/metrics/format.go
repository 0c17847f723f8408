package metrics

import (
	"strconv"
	"strings"
)

// Format is an exposition format, as the Content-Type that serves it.
type Format string

// The two formats a scrape can get: the Prometheus text format, and
// OpenMetrics 1.0 for a scraper that asks for it.
const (
	TextFormat        Format = "text/plain; version=0.0.4; charset=utf-8"
	OpenMetricsFormat Format = "application/openmetrics-text; version=1.0.0; charset=utf-8"
)

// OpenMetrics reports whether f is OpenMetrics.
func (f Format) OpenMetrics() bool { return f == OpenMetricsFormat }

// Negotiate is the format an Accept header asks for: OpenMetrics when it
// is preferred, the text format otherwise.
//
// The clauses are ranked as Prometheus' client libraries rank them
// (expfmt.NegotiateAccept over goautoneg): by q, highest first, with a
// clause naming a type or subtype ahead of one with a wildcard there; the
// first clause that matches a format picks it. A clause matches
// OpenMetrics when its type and subtype are application/openmetrics-text
// (or wildcards) and its version is 1.0.0; a bare
// application/openmetrics-text means version 0.0.1, which kgroups does
// not serve. It matches the text format when its type and subtype are
// text/plain (or wildcards) and its version is 0.0.4, which a bare
// text/plain means. Nothing matching is the text format.
// TestNegotiateAsExpfmt holds the choice to expfmt's.
func Negotiate(accept string) Format {
	for _, c := range rankAccept(parseAccept(accept)) {
		if c.matches("application", "openmetrics-text", "1.0.0") {
			return OpenMetricsFormat
		}
		if c.matches("text", "plain", "0.0.4") {
			return TextFormat
		}
	}
	return TextFormat
}

// acceptClause is one media range of an Accept header.
type acceptClause struct {
	typ, sub string
	q        float64
	version  string // "" when not given
}

// matches reports whether c asks for typ/sub at version. A clause
// without a version names the format's first: 0.0.4 for text/plain,
// 0.0.1 for application/openmetrics-text, none for a wildcard.
func (c acceptClause) matches(typ, sub, version string) bool {
	if c.typ != "*" && c.typ != typ || c.sub != "*" && c.sub != sub {
		return false
	}
	v := c.version
	if v == "" {
		switch c.typ + "/" + c.sub {
		case "application/openmetrics-text":
			v = "0.0.1"
		case "text/plain":
			v = "0.0.4"
		}
	}
	return v == version
}

// parseAccept splits an Accept header into its clauses, in order, as
// goautoneg does: a clause is type/subtype (a lone "*" is */*) and
// parameters after ";"; one without a subtype, or with a second "/"
// followed by more, is left out; a parameter without a value, or with a
// second "=" followed by more, is ignored; a q that is not a number
// counts as 0.
func parseAccept(h string) []acceptClause {
	var out []acceptClause
	for h != "" {
		var part string
		part, h, _ = strings.Cut(h, ",")
		part = strings.Trim(part, " ")
		mediaRange, params, _ := strings.Cut(part, ";")
		typ, sub, _ := strings.Cut(mediaRange, "/")
		c := acceptClause{typ: strings.Trim(typ, " "), q: 1}
		if sub == "" {
			if c.typ != "*" {
				continue
			}
			c.sub = "*"
		} else {
			sub, rest, _ := strings.Cut(sub, "/")
			if rest != "" {
				continue
			}
			c.sub = strings.Trim(sub, " ")
		}
		for params != "" {
			var p string
			p, params, _ = strings.Cut(params, ";")
			k, v, _ := strings.Cut(p, "=")
			if v == "" {
				continue
			}
			v, rest, _ := strings.Cut(v, "=")
			if rest != "" {
				continue
			}
			switch k = strings.Trim(k, " "); k {
			case "q":
				c.q, _ = strconv.ParseFloat(v, 32)
			case "version":
				c.version = strings.Trim(v, " ")
			}
		}
		out = append(out, c)
	}
	return out
}

// rankAccept orders the clauses, best first: a clause goes ahead of the
// one before it while it has the higher q, or names a type (or a
// subtype) where that one has a wildcard. This is the insertion sort Go's
// sort.Sort does on up to twelve elements, with goautoneg's comparison,
// so that the rank, ties included, is the client libraries'.
func rankAccept(cs []acceptClause) []acceptClause {
	less := func(a, b acceptClause) bool {
		return a.q > b.q || a.typ != "*" && b.typ == "*" || a.sub != "*" && b.sub == "*"
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && less(cs[j], cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	return cs
}
