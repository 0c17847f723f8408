package diagnose

import "time"

// Message is a finding's sentence: Format, a fmt format, and its Args.
// An argument of type Span, Instant, Size, Rate or Count is a value the
// renderers word the way the rest of kgroups does (views/render's
// DiagnoseMessage, with views/format: "1m04s", "8d 0h", a time of day,
// "28 B", "6.2 msg/s", "1 partition"), so its verb is %s or %v; any other argument prints
// as fmt says. The rules stay free of formatting and the CLI's table, its
// JSON and the Diagnosis tab read the same words.
type Message struct {
	Format string
	Args   []any
}

// msg builds a Message.
func msg(format string, args ...any) Message { return Message{Format: format, Args: args} }

// Span is a span of time in a message: an age, a time lag, a timeout.
type Span time.Duration

// Instant is a point in time in a message, in Unix milliseconds.
type Instant int64

// Size is a size in bytes in a message.
type Size int64

// Rate is a rate in messages per second in a message.
type Rate float64

// Count is a number of things in a message with its noun (and verb, when
// the sentence needs one to agree) in the singular and the plural: the
// renderers word it with views/format.Count, the one helper for counts,
// "1 partition", "3 partitions", "1 record waits".
type Count struct {
	N         int64
	One, Many string
}

// count builds a Count.
func count[N ~int | ~int32 | ~int64](n N, one, many string) Count {
	return Count{N: int64(n), One: one, Many: many}
}

// seconds is a float of seconds as a Span.
func seconds(s float64) Span {
	if s <= 0 {
		return 0
	}
	if s > float64(1<<62)/1e9 {
		return Span(1 << 62)
	}
	return Span(s * float64(time.Second))
}
