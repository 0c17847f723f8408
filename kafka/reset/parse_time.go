package reset

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DatetimeFormats says which datetimes ParseDatetime accepts; every error
// about a datetime quotes it, so a user never has to guess.
const DatetimeFormats = "accepted formats are Kafka's yyyy-MM-ddTHH:mm:ss.SSS with an optional zone " +
	"(Z, +01:00 or +0100; no zone means UTC), e.g. 2024-03-01T09:30:00.000 or 2024-03-01T09:30:00.000+0100, " +
	"and RFC 3339 with or without fractional seconds, e.g. 2024-03-01T09:30:00Z or 2024-03-01T09:30:00.5+01:00"

// DurationFormats says which durations ParseDuration accepts.
const DurationFormats = "accepted formats are ISO-8601 PnDTnHnMn.nS, e.g. P1DT2H, PT30M or PT1.5S, " +
	"and Go durations, e.g. 90m, 1h30m or 45s"

// datetimeRE matches both accepted datetime shapes at once: Kafka's format
// is RFC 3339 with exactly three fractional digits, an optional zone and a
// zone offset that may omit its colon. It is compiled on first use, as
// isoDurationRE is: only a reset parses times, and every other command
// would pay for both at start.
var datetimeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$`)
})

// ParseDatetime reads a --to-datetime value. It accepts what
// kafka-consumer-groups.sh accepts, so that commands carry over, and RFC 3339
// as most other tools print it. A datetime without a zone is UTC, as in the
// Kafka tool; fields out of range (month 13, February 30, hour 24) are
// errors rather than being rolled over into the next unit, and so is a time
// before the Unix epoch, which no Kafka timestamp can name.
func ParseDatetime(s string) (time.Time, error) {
	bad := func(why string) (time.Time, error) {
		if why != "" {
			why += "; "
		}
		return time.Time{}, fmt.Errorf("invalid datetime %q: %s%s", s, why, DatetimeFormats)
	}
	m := datetimeRE().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return bad("")
	}
	num := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	year, month, day, hour, minute, sec := num(1), num(2), num(3), num(4), num(5), num(6)
	nanos := 0
	if frac := m[7]; frac != "" {
		nanos, _ = strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
	}
	loc := time.UTC
	if z := m[8]; z != "" && z != "Z" {
		digits := strings.ReplaceAll(z[1:], ":", "")
		zh, _ := strconv.Atoi(digits[:2])
		zm, _ := strconv.Atoi(digits[2:])
		if zh > 18 || zm > 59 {
			return bad(fmt.Sprintf("zone offset %s is out of range", z))
		}
		off := zh*3600 + zm*60
		if z[0] == '-' {
			off = -off
		}
		loc = time.FixedZone(z, off)
	}
	if month < 1 || month > 12 {
		return bad(fmt.Sprintf("month %02d is out of range", month))
	}
	if hour > 23 || minute > 59 || sec > 59 {
		return bad(fmt.Sprintf("time %02d:%02d:%02d is out of range", hour, minute, sec))
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, loc)
	if day < 1 || t.Day() != day {
		return bad(fmt.Sprintf("day %02d does not exist in %04d-%02d", day, year, month))
	}
	if t.Before(time.Unix(0, 0)) {
		return bad("it must not be before 1970-01-01T00:00:00Z (Kafka timestamps are Unix milliseconds)")
	}
	return t, nil
}

// isoDurationRE is java.time.Duration's PnDTnHnMn.nS without signs (a
// duration here counts back from now, so a negative one makes no sense).
// Either the day part or the time part must be present, and a T must be
// followed by at least one component.
var isoDurationRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[Pp](?:(\d+)[Dd])?(?:[Tt](?:(\d+)[Hh])?(?:(\d+)[Mm])?(?:(\d+)(?:[.,](\d{1,9}))?[Ss])?)?$`)
})

// ParseDuration reads a --by-duration value: ISO-8601 as
// kafka-consumer-groups.sh accepts it (PnDTnHnMn.nS), or a Go duration such
// as 90m. Negative durations and durations too long to represent are errors.
func ParseDuration(s string) (time.Duration, error) {
	in := strings.TrimSpace(s)
	bad := func(why string) (time.Duration, error) {
		if why != "" {
			why += "; "
		}
		return 0, fmt.Errorf("invalid duration %q: %s%s", s, why, DurationFormats)
	}
	if in == "" {
		return bad("it is empty")
	}
	if in[0] == 'P' || in[0] == 'p' {
		m := isoDurationRE().FindStringSubmatch(in)
		if len(m) == 0 || (m[1] == "" && m[2] == "" && m[3] == "" && m[4] == "") {
			return bad("")
		}
		// The regexp already demands a component after T, except for a
		// bare trailing "T" ("P1DT"), which java.time rejects too.
		if strings.HasSuffix(in, "T") || strings.HasSuffix(in, "t") {
			return bad("")
		}
		var total float64
		parts := []struct {
			text string
			unit time.Duration
		}{{m[1], 24 * time.Hour}, {m[2], time.Hour}, {m[3], time.Minute}, {m[4], time.Second}}
		var d time.Duration
		for _, p := range parts {
			if p.text == "" {
				continue
			}
			n, err := strconv.ParseInt(p.text, 10, 64)
			if err != nil {
				return bad("it is too long")
			}
			total += float64(n) * float64(p.unit)
			if total > math.MaxInt64/2 {
				return bad("it is too long")
			}
			d += time.Duration(n) * p.unit
		}
		if frac := m[5]; frac != "" {
			ns, _ := strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
			d += time.Duration(ns)
		}
		return d, nil
	}
	d, err := time.ParseDuration(in)
	if err != nil {
		return bad("")
	}
	if d < 0 {
		return bad("a duration counts back from now, so it cannot be negative")
	}
	return d, nil
}
