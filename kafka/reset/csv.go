package reset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// FileRow is one line of an offsets file: the offset to set for a
// partition, and for files covering several groups, which group.
type FileRow struct {
	// Group is empty in the three-column (one group) form.
	Group     string
	Topic     string
	Partition int32
	// Offset is the offset to commit; NoOffset (only in undo rows) means
	// the partition had no commit, so undo removes it.
	Offset int64
	// Line is the 1-based line the row came from (0 when not from a file).
	Line int
}

// TP is the row's partition.
func (r FileRow) TP() TP { return TP{r.Topic, r.Partition} }

// CSVFormat says what an offsets file looks like; errors quote it.
const CSVFormat = "each line is topic,partition,offset (one group) or group,topic,partition,offset (several groups), with no header line, as kafka-consumer-groups.sh --export writes it"

// maxCSVErrors bounds how many bad lines an error lists; the count of the
// rest is given.
const maxCSVErrors = maxListedErrors

// maxCSVLine bounds one line, so that a binary file given by mistake fails
// with a clear error instead of filling memory.
const maxCSVLine = 1 << 20

// LineError is one bad line of an offsets file.
type LineError struct {
	Line int
	Msg  string
}

// CSVError lists every bad line of an offsets file, so that a user can fix
// them all at once.
type CSVError struct {
	Lines []LineError
	// More counts bad lines beyond those listed.
	More int
}

func (e *CSVError) Error() string {
	var b strings.Builder
	n := len(e.Lines) + e.More
	fmt.Fprintf(&b, "%d bad line", n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(" (" + CSVFormat + "):")
	for _, l := range e.Lines {
		fmt.Fprintf(&b, "\n  line %d: %s", l.Line, l.Msg)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  and %d more", e.More)
	}
	return b.String()
}

// utf8BOM is the byte-order mark spreadsheet programs put at the start of a
// UTF-8 export.
var utf8BOM = []byte("\ufeff")

// csvTooLargeHint says what to do with an offsets file over the cap.
const csvTooLargeHint = "split it into files of fewer partitions, or check that it is an offsets file"

// ReadCSV parses the offsets file read from r (name names it in errors) with
// ParseCSV, reading at most config.MaxCSVBytes and stopping with ctx's error
// as soon as ctx is done, so that an endless input such as /dev/urandom
// neither runs forever nor ignores Ctrl+C.
func ReadCSV(ctx context.Context, r io.Reader, name string) ([]FileRow, error) {
	tooLarge := &config.TooLargeError{Name: name, What: "offsets file", Limit: config.MaxCSVBytes, Hint: csvTooLargeHint}
	return ParseCSV(config.NewBounded(ctx, r, config.MaxCSVBytes, tooLarge))
}

// ReadCSVFile reads the offsets file at path as ReadCSV does; a regular file
// over the cap is refused without being read.
func ReadCSVFile(ctx context.Context, path string) ([]FileRow, error) {
	f, err := config.OpenBounded(ctx, path, config.MaxCSVBytes, "offsets file", csvTooLargeHint)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return ParseCSV(f)
}

// ParseCSV reads an offsets file as kafka-consumer-groups.sh --export writes
// it. Blank lines are skipped, and spaces around fields, Windows line endings
// and a UTF-8 byte-order mark at the start (spreadsheet exports have one) are
// tolerated; everything else that is wrong is reported with its
// line number: a wrong number of fields, a mix of the three- and
// four-column forms, a bad topic name, a non-numeric or negative partition
// or offset, and a partition listed twice.
func ParseCSV(r io.Reader) ([]FileRow, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxCSVLine)
	var (
		rows     []FileRow
		bad      CSVError
		width    int // 3 or 4, set by the first well-formed line
		widthAt  int
		lineNo   int
		seenKeys = make(map[string]int)
	)
	fail := func(line int, format string, args ...any) {
		if len(bad.Lines) < maxCSVErrors {
			bad.Lines = append(bad.Lines, LineError{Line: line, Msg: fmt.Sprintf(format, args...)})
		} else {
			bad.More++
		}
	}
	// record checks the fields of the record that starts on line.
	record := func(line int, fields []string) {
		if len(fields) != 3 && len(fields) != 4 {
			fail(line, "%s; expected 3 (topic,partition,offset) or 4 (group,topic,partition,offset)", kafka.Count(len(fields), "field", "fields"))
			return
		}
		if width == 0 {
			width, widthAt = len(fields), line
		} else if len(fields) != width {
			fail(line, "%s, but line %d has %d: a file is either all topic,partition,offset or all group,topic,partition,offset", kafka.Count(len(fields), "field", "fields"), widthAt, width)
			return
		}
		row := FileRow{Line: line}
		if len(fields) == 4 {
			row.Group = fields[0]
			fields = fields[1:]
			if row.Group == "" {
				fail(line, "the group is empty")
				return
			}
		}
		row.Topic = fields[0]
		if why := ValidTopicName(row.Topic); why != "" {
			fail(line, "%s", why)
			return
		}
		p, err := parsePartition(fields[1])
		if err != nil {
			msg := err.Error()
			if line == 1 && !isDigits(fields[1]) && !isDigits(fields[2]) {
				msg += " (offsets files have no header line)"
			}
			fail(line, "%s", msg)
			return
		}
		row.Partition = p
		off, err := parseOffset(fields[2])
		if err != nil {
			fail(line, "%s", err.Error())
			return
		}
		row.Offset = off
		key := row.Group + "\x00" + row.TP().String()
		if prev, dup := seenKeys[key]; dup {
			if row.Group != "" {
				fail(line, "group %s partition %s repeats line %d", row.Group, row.TP(), prev)
			} else {
				fail(line, "partition %s repeats line %d", row.TP(), prev)
			}
			return
		}
		seenKeys[key] = line
		rows = append(rows, row)
	}
	var pending strings.Builder // a record whose quoted field goes on past its line
	startLine := 0
	for sc.Scan() {
		lineNo++
		line := sc.Bytes()
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if pending.Len() > 0 {
			pending.WriteByte('\n')
			pending.Write(bytes.TrimSuffix(line, []byte("\r")))
		} else {
			if strings.TrimSpace(string(line)) == "" {
				continue
			}
			startLine = lineNo
			pending.Write(bytes.TrimSuffix(line, []byte("\r")))
		}
		fields, open, why := splitFields(strings.TrimSpace(pending.String()))
		if open {
			if pending.Len() > maxCSVLine {
				fail(startLine, "a quoted field runs on past %d bytes; is its closing quote missing?", maxCSVLine)
				pending.Reset()
			}
			continue
		}
		pending.Reset()
		if why != "" {
			fail(startLine, "%s", why)
			continue
		}
		record(startLine, fields)
	}
	if pending.Len() > 0 && sc.Err() == nil {
		fail(startLine, "a quoted field is never closed")
	}
	if err := sc.Err(); err != nil {
		var tooLarge *config.TooLargeError
		switch {
		case errors.Is(err, bufio.ErrTooLong):
			fail(lineNo+1, "longer than %d bytes; is this an offsets file?", maxCSVLine)
		case errors.As(err, &tooLarge), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return nil, err
		default:
			return nil, fmt.Errorf("read offsets file: %w", err)
		}
	}
	if len(bad.Lines) > 0 {
		return nil, &bad
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("the offsets file has no offsets; %s", CSVFormat)
	}
	return rows, nil
}

// csvField is s as one CSV field: quoted when it holds a comma, a double
// quote, a line break or spaces at its ends (which the reader would trim).
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// splitFields splits one CSV record into its fields, RFC 4180 style: a
// field may be quoted, a quote inside doubled; spaces around a field are
// dropped. open reports a quote still open at the end of text (the record
// goes on on the next line); bad says what is wrong with the quoting.
func splitFields(text string) (fields []string, open bool, bad string) {
	i := 0
	for {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i < len(text) && text[i] == '"' {
			var f strings.Builder
			j := i + 1
			for {
				k := strings.IndexByte(text[j:], '"')
				if k < 0 {
					return nil, true, ""
				}
				f.WriteString(text[j : j+k])
				j += k + 1
				if j < len(text) && text[j] == '"' {
					f.WriteByte('"')
					j++
					continue
				}
				break
			}
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			fields = append(fields, f.String())
			if j == len(text) {
				return fields, false, ""
			}
			if text[j] != ',' {
				return nil, false, fmt.Sprintf("text after the closing quote of field %d; quote a whole field, and double a quote inside it", len(fields))
			}
			i = j + 1
			continue
		}
		k := strings.IndexByte(text[i:], ',')
		end := len(text)
		if k >= 0 {
			end = i + k
		}
		f := strings.TrimSpace(text[i:end])
		if strings.Contains(f, `"`) {
			return nil, false, fmt.Sprintf("a quote inside the unquoted field %d; quote the whole field and double the quote", len(fields)+1)
		}
		fields = append(fields, f)
		if k < 0 {
			return fields, false, ""
		}
		i = end + 1
	}
}

// SplitCSVRecords splits CSV text as WriteCSV writes it into its records,
// a line break inside a quoted field kept in its record.
func SplitCSVRecords(s string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, line := range strings.SplitAfter(s, "\n") {
		if line == "" {
			continue
		}
		cur.WriteString(line)
		if strings.Count(line, `"`)%2 == 1 {
			quoted = !quoted
		}
		if !quoted {
			out = append(out, strings.TrimSuffix(cur.String(), "\n"))
			cur.Reset()
		}
	}
	if cur.Len() > 0 {
		out = append(out, strings.TrimSuffix(cur.String(), "\n"))
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// parseOffset reads an offset: a non-negative int64.
func parseOffset(s string) (int64, error) {
	if s == "" {
		return 0, errors.New("the offset is missing")
	}
	if !isDigits(s) {
		return 0, fmt.Errorf("offset %q is not a non-negative whole number", s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("offset %q is too large", s)
	}
	return n, nil
}

// ParseOffset reads an offset given on the command line or typed in the
// TUI, with the same rules and messages as the offsets file.
func ParseOffset(s string) (int64, error) {
	n, err := parseOffset(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid offset: %w", err)
	}
	return n, nil
}

// ParseShift reads a --shift-by distance: a whole number, negative to go
// back.
func ParseShift(s string) (int64, error) {
	t := strings.TrimSpace(s)
	digits := strings.TrimPrefix(strings.TrimPrefix(t, "+"), "-")
	if !isDigits(digits) || len(t)-len(digits) > 1 {
		return 0, fmt.Errorf("invalid shift %q: give a whole number of records, negative to go back (e.g. -100) or positive to skip ahead (e.g. 50)", s)
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid shift %q: too large", s)
	}
	return n, nil
}

// RowsForGroup picks the rows for group: every row of a three-column file,
// or the group's own rows of a four-column one. A four-column file without a
// row for group is an error that names the groups it does have.
func RowsForGroup(rows []FileRow, group string) ([]FileRow, error) {
	if len(rows) == 0 || rows[0].Group == "" {
		return rows, nil
	}
	var out []FileRow
	var groups []string
	seen := make(map[string]bool)
	for _, r := range rows {
		if r.Group == group {
			out = append(out, r)
		}
		if !seen[r.Group] {
			seen[r.Group] = true
			groups = append(groups, r.Group)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the offsets file has no rows for group %q; it has rows for %s", group, quoteList(groups, 10))
	}
	return out, nil
}

func quoteList(ss []string, limit int) string {
	var parts []string
	for i, s := range ss {
		if i == limit {
			parts = append(parts, fmt.Sprintf("and %d more", len(ss)-limit))
			break
		}
		parts = append(parts, strconv.Quote(s))
	}
	return strings.Join(parts, ", ")
}

// WriteCSV writes rows in kafka-consumer-groups.sh --export's format:
// topic,partition,offset, or with withGroup group,topic,partition,offset.
// A name with a comma, a double quote, a line break or spaces at its ends
// is quoted as RFC 4180 says ("a,b" and "say ""hi"""), so that it reads
// back as the one field it is and can never forge a row; other names are
// written bare, as the Kafka tool writes them. Rows without an offset
// (NoOffset) cannot be expressed and are an error.
func WriteCSV(w io.Writer, rows []FileRow, withGroup bool) error {
	var b strings.Builder
	for _, r := range rows {
		if r.Offset < 0 {
			return fmt.Errorf("partition %s has no offset to export", r.TP())
		}
		if withGroup {
			b.WriteString(csvField(r.Group))
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s,%d,%d\n", csvField(r.Topic), r.Partition, r.Offset)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write offsets: %w", err)
	}
	return nil
}
