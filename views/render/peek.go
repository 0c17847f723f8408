package render

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// PeekOptions say how `kgroups peek` shows values.
type PeekOptions struct {
	Format   format.ValueFormat
	MaxBytes int // per value; <= 0 shows all
}

// RecordTimeLayout is how a record's timestamp is shown: UTC, milliseconds.
const RecordTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// PeekText writes the records of res as blocks, one per record, under a
// line per partition with its offsets. Partitions whose Err left no record
// are skipped: the caller reports their errors on stderr.
func PeekText(w io.Writer, res kafka.PeekResult, opts PeekOptions) error {
	var b strings.Builder
	first := true
	for _, p := range res.Partitions {
		if len(p.Records) == 0 {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		fmt.Fprintf(&b, "TOPIC %s  PARTITION %d  COMMITTED %s  LOG-START %s  LOG-END %s  LAST-STABLE %s\n",
			format.Sanitize(p.Topic), p.Partition, format.Offset(p.Committed), format.Offset(p.LogStart), format.Offset(p.LogEnd), format.Offset(p.LastStable))
		for i := range p.Records {
			b.WriteByte('\n')
			for _, l := range RecordLines(&p.Records[i], opts) {
				b.WriteString(l)
				b.WriteByte('\n')
			}
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return Print(w, strings.TrimSuffix(b.String(), "\n"))
}

// RecordLines is one record as terminal-safe lines: its fields, then its
// value indented by two spaces and, when cut, the truncation mark. The
// record viewer shows the same fields.
func RecordLines(r *kafka.PeekRecord, opts PeekOptions) []string {
	lines := RecordFields(r)
	v := format.RenderValue(r.Value, opts.Format, opts.MaxBytes)
	lines = append(lines, "value        "+ValueHeading(v))
	for _, l := range v.Lines {
		lines = append(lines, "  "+l)
	}
	if v.Elided != "" {
		lines = append(lines, "  "+v.Elided)
	}
	if v.Truncated() {
		lines = append(lines, "  "+v.TruncationMark())
	}
	return lines
}

// RecordFields are a record's fields but its value, one a line.
func RecordFields(r *kafka.PeekRecord) []string {
	lines := []string{
		fmt.Sprintf("offset       %d", r.Offset),
		fmt.Sprintf("timestamp    %s (%s)", r.Timestamp.UTC().Format(RecordTimeLayout), r.TimestampType()),
		"key          " + format.InlineBytes(r.Key),
	}
	if len(r.Headers) == 0 {
		lines = append(lines, "headers      "+format.Missing)
	}
	for i, h := range r.Headers {
		if i == format.MaxHeaders {
			lines = append(lines, "             … elided: "+format.Count(len(r.Headers)-i, "more header", "more headers"))
			break
		}
		label := "             "
		if i == 0 {
			label = "headers      "
		}
		lines = append(lines, label+format.InlineText(h.Key)+"="+format.InlineBytes(h.Value))
	}
	lines = append(lines, "size         "+format.Count(r.Size, "byte", "bytes"))
	if s := r.Txn.String(); s != "" {
		lines = append(lines, "transaction  "+s)
	}
	return lines
}

// ValueHeading names the format a value is shown in and its size:
// "json, 21 bytes", "hex, 4 bytes (not UTF-8 text)", "null".
func ValueHeading(v format.RenderedValue) string {
	if v.Null {
		return "null"
	}
	s := v.Format.String() + ", " + format.Count(v.Total, "byte", "bytes")
	if v.Note != "" {
		s += " (" + v.Note + ")"
	}
	return s
}

type jsonPeek struct {
	Group       string              `json:"group"`
	GroupBase64 string              `json:"groupBase64,omitempty"`
	Topic       string              `json:"topic"`
	Partitions  []jsonPeekPartition `json:"partitions"`
}

type jsonPeekPartition struct {
	Partition        int32            `json:"partition"`
	CommittedOffset  *int64           `json:"committedOffset"`
	StartOffset      int64            `json:"startOffset"`
	LogStartOffset   *int64           `json:"logStartOffset"`
	LogEndOffset     *int64           `json:"logEndOffset"`
	LastStableOffset *int64           `json:"lastStableOffset"`
	Error            *string          `json:"error"`
	Records          []jsonPeekRecord `json:"records"`
}

type jsonPeekRecord struct {
	Offset         int64            `json:"offset"`
	Timestamp      string           `json:"timestamp"`
	TimestampType  string           `json:"timestampType"`
	Key            *string          `json:"key"`
	KeyEncoding    *string          `json:"keyEncoding"`
	Headers        []jsonPeekHeader `json:"headers"`
	Value          *string          `json:"value"`
	ValueEncoding  *string          `json:"valueEncoding"`
	ValueBytes     int              `json:"valueBytes"`
	ValueTruncated bool             `json:"valueTruncated"`
	Size           int              `json:"size"`
	Transaction    *string          `json:"transaction"`
}

type jsonPeekHeader struct {
	Key           *string `json:"key"`
	KeyEncoding   *string `json:"keyEncoding"`
	Value         *string `json:"value"`
	ValueEncoding *string `json:"valueEncoding"`
}

// exactBytes is b as a JSON string that decodes to exactly b: the text
// itself ("utf8") when b is UTF-8, else standard base64 ("base64"); both
// nil for a null.
func exactBytes(b []byte) (s, encoding *string) {
	if b == nil {
		return nil, nil
	}
	if utf8.Valid(b) {
		return ptr(string(b)), ptr("utf8")
	}
	return ptr(base64.StdEncoding.EncodeToString(b)), ptr("base64")
}

// PeekJSON writes res as one document with every record's exact bytes:
// keys, header values and values as UTF-8 strings, or base64 with an
// encoding field saying so; a value longer than opts.MaxBytes is cut to
// that many bytes and marked valueTruncated (valueBytes is its full size).
func PeekJSON(w io.Writer, res kafka.PeekResult, opts PeekOptions) error {
	doc := jsonPeek{Group: res.Group, GroupBase64: groupBase64(res.Group), Topic: res.Topic, Partitions: make([]jsonPeekPartition, 0, len(res.Partitions))}
	for _, p := range res.Partitions {
		jp := jsonPeekPartition{
			Partition:        p.Partition,
			CommittedOffset:  offset(p.Committed),
			StartOffset:      p.Start,
			LogStartOffset:   offset(p.LogStart),
			LogEndOffset:     offset(p.LogEnd),
			LastStableOffset: offset(p.LastStable),
			Error:            errString(p.Err),
			Records:          make([]jsonPeekRecord, 0, len(p.Records)),
		}
		for i := range p.Records {
			r := &p.Records[i]
			jr := jsonPeekRecord{
				Offset:        r.Offset,
				Timestamp:     r.Timestamp.UTC().Format(time.RFC3339Nano),
				TimestampType: r.TimestampType(),
				Headers:       make([]jsonPeekHeader, 0, len(r.Headers)),
				ValueBytes:    len(r.Value),
				Size:          r.Size,
			}
			jr.Key, jr.KeyEncoding = exactBytes(r.Key)
			value := r.Value
			if opts.MaxBytes > 0 && len(value) > opts.MaxBytes {
				value, jr.ValueTruncated = value[:opts.MaxBytes], true
			}
			jr.Value, jr.ValueEncoding = exactBytes(value)
			for _, h := range r.Headers {
				var jh jsonPeekHeader
				jh.Key, jh.KeyEncoding = exactBytes([]byte(h.Key))
				jh.Value, jh.ValueEncoding = exactBytes(h.Value)
				jr.Headers = append(jr.Headers, jh)
			}
			if s := r.Txn.String(); s != "" {
				jr.Transaction = &s
			}
			jp.Records = append(jp.Records, jr)
		}
		doc.Partitions = append(doc.Partitions, jp)
	}
	return EncodeJSON(w, doc)
}
