package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
)

// DiagnosedGroup is one group's findings, as kafka/diagnose returned them
// (most severe first).
type DiagnosedGroup struct {
	Group    string
	Findings []diagnose.Finding
	// Verdict is the group's verdict the findings rest on: while it
	// judges (diagnose.Pending), a group without a finding is "judging
	// 3/10", never "no findings".
	Verdict lag.Verdict
}

// DiagnoseRow is one finding in `kgroups diagnose`'s table.
type DiagnoseRow struct {
	Group   string
	Finding *diagnose.Finding
}

// DiagnoseNext is a finding's suggested commands as one line: every word
// quoted for a POSIX shell (format.ShellQuote), commands joined by "; ".
// Like any string with a broker's bytes, it is sanitized where shown.
func DiagnoseNext(f *diagnose.Finding) string {
	cmds := make([]string, 0, len(f.Next))
	for _, c := range f.Next {
		words := make([]string, len(c))
		for i, w := range c {
			words[i] = format.ShellQuote(w)
		}
		cmds = append(cmds, strings.Join(words, " "))
	}
	return strings.Join(cmds, "; ")
}

// CommandLine is a suggested command's words, each quoted for a POSIX
// shell (format.ShellQuote), joined by spaces.
func CommandLine(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = format.ShellQuote(w)
	}
	return strings.Join(q, " ")
}

// DescribeCommand is "kgroups describe GROUP" as it can be pasted: the
// group named as kafka.Command names it ("--" before a name that reads as
// a flag, --group-base64 for one that cannot be typed).
func DescribeCommand(group string, rest ...string) string {
	return CommandLine(kafka.Command([]string{"kgroups", "describe"}, group, rest...))
}

// DiagnoseWhere is where a finding points: "topic:partition", a topic, a
// member id, or "-" for the group as a whole.
func DiagnoseWhere(f *diagnose.Finding) string {
	switch {
	case f.Topic != "" && f.Partition >= 0:
		return f.Topic + ":" + strconv.FormatInt(int64(f.Partition), 10)
	case f.Topic != "":
		return f.Topic
	case f.Member != "":
		return f.Member
	}
	return text("")
}

// messageMax caps the MESSAGE column of `kgroups diagnose`'s table: a
// message is one sentence, and --wide or -o json show the longest whole.
const messageMax = 120

// DiagnoseMessage is a finding's message in words: its spans as
// format.Span ("1m04s", "8d00h"), its instants as times in the layout of
// records (RecordTimeLayout, UTC as peek shows them), its sizes in bytes with a unit
// ("28 B", "1.5 KiB"), its rates as "6.2 msg/s". The table, the JSON
// document and the Diagnosis tab all show this text.
func DiagnoseMessage(f *diagnose.Finding) string {
	args := make([]any, len(f.Message.Args))
	for i, a := range f.Message.Args {
		args[i] = messageArg(a)
	}
	return fmt.Sprintf(f.Message.Format, args...)
}

func messageArg(a any) any {
	switch a := a.(type) {
	case diagnose.Span:
		return format.Span(time.Duration(a))
	case diagnose.Instant:
		return Instant(int64(a))
	case diagnose.Size:
		return Size(int64(a))
	case diagnose.Rate:
		return format.Rate(float64(a)) + " msg/s"
	case diagnose.Count:
		return format.Count(int(a.N), a.One, a.Many)
	}
	return a
}

// Instant is a Unix millisecond timestamp as a UTC time in
// RecordTimeLayout.
func Instant(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(RecordTimeLayout)
}

// Size is a size in bytes with its unit: "28 B", then KiB, MiB and GiB
// with one decimal.
func Size(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB"} {
		v /= 1024
		if v < 1024 || u == "GiB" {
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + u
		}
	}
	return ""
}

// DiagnoseEvidence is a piece of evidence in words, as the Diagnosis tab
// shows it: by the unit its key names, seconds and milliseconds as spans
// (format.Span: "timeLagSeconds 8d00h", "timeoutMs 1h00m"), timestamps as
// times (Instant), sizes with "B", rates with "msg/s"; strings bare, null
// as "null", anything else as in `kgroups diagnose -o json`.
func DiagnoseEvidence(key string, v any) string {
	switch n := v.(type) {
	case nil:
		// JSON keeps null; a screen says what it means.
		if key == "catchUpSeconds" {
			return "never, at these rates"
		}
		return "unknown"
	case string:
		return n
	case int64:
		switch {
		case strings.HasSuffix(key, "Ms"):
			return format.Span(time.Duration(n) * time.Millisecond)
		case strings.HasSuffix(key, "Seconds") || key == "secondsLeft":
			return format.Span(time.Duration(n) * time.Second)
		case strings.HasSuffix(key, "Timestamp"):
			return Instant(n)
		case strings.HasSuffix(key, "Size"):
			return Size(n)
		}
		return strconv.FormatInt(n, 10)
	case float64:
		switch {
		case strings.HasSuffix(key, "GrowthPerSecond") && strings.HasPrefix(key, "timeLag"):
			return strconv.FormatFloat(n, 'f', 3, 64) + "s/s"
		case strings.HasSuffix(key, "Seconds"):
			return format.Span(format.Seconds(n))
		case strings.HasSuffix(key, "Rate") || strings.HasSuffix(key, "PerSecond"):
			return format.Rate(n) + " msg/s"
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// DiagnoseColumns are the columns of `kgroups diagnose`'s table, one row a
// finding.
func DiagnoseColumns() []Column[DiagnoseRow] {
	return []Column[DiagnoseRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r DiagnoseRow) string { return groupCell(r.Group) }},
		{Title: "SEVERITY", Align: left, Value: func(r DiagnoseRow) string { return r.Finding.Severity.String() }},
		{Title: "FINDING", Align: left, Value: func(r DiagnoseRow) string { return r.Finding.ID }},
		{Title: "WHERE", Align: left, Max: idMax, Value: func(r DiagnoseRow) string { return DiagnoseWhere(r.Finding) }},
		{Title: "MESSAGE", Align: left, Max: messageMax, Value: func(r DiagnoseRow) string { return DiagnoseMessage(r.Finding) }},
		{Title: "NEXT", Align: left, Value: func(r DiagnoseRow) string { return DiagnoseNext(r.Finding) }},
	}
}

// Diagnose writes the findings, one line each, grouped by group in the
// order given and, within a group, most severe first. Groups without a
// finding are named on one line each after the table, so that a healthy
// run still says what it looked at: "no findings", or "no findings yet:
// judging 3/10" when the window held too few observations for the rules
// that judge a trend.
func Diagnose(w io.Writer, gs []DiagnosedGroup, lay Layout) error {
	var rows []DiagnoseRow
	var clean []string
	for i := range gs {
		if len(gs[i].Findings) == 0 {
			line := format.Sanitize(gs[i].Group) + ": no findings"
			if p := diagnose.Pending(gs[i].Verdict); p != "" {
				line += " yet: " + p
			}
			clean = append(clean, line)
			continue
		}
		for j := range gs[i].Findings {
			rows = append(rows, DiagnoseRow{Group: gs[i].Group, Finding: &gs[i].Findings[j]})
		}
	}
	var out string
	if len(rows) > 0 {
		out = TableWith(DiagnoseColumns(), rows, lay)
	}
	for _, l := range clean {
		out += l + "\n"
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

type jsonDiagnoseDocument struct {
	Groups []jsonDiagnoseGroup `json:"groups"`
	// Notes are the reads the brokers cannot answer, when there are any.
	Notes []jsonMissing `json:"notes,omitempty"`
}

type jsonDiagnoseGroup struct {
	Group       string `json:"group"`
	GroupBase64 string `json:"groupBase64,omitempty"`
	// Judging is how much of the window a verdict still judging has
	// seen (diagnose.Pending), null once judged.
	Judging  *jsonJudging  `json:"judging"`
	Findings []jsonFinding `json:"findings"`
}

type jsonFinding struct {
	ID        string            `json:"id"`
	Severity  lag.Severity      `json:"severity"`
	Topic     *string           `json:"topic"`
	Partition *int32            `json:"partition"`
	Message   string            `json:"message"`
	Evidence  diagnose.Evidence `json:"evidence"`
	Next      string            `json:"next"`
}

// DiagnoseJSON writes the findings as
// {"groups":[{"group":…,"judging":…,"findings":[{"id","severity","topic","partition","message","evidence","next"}]}]};
// topic and partition are null for a finding about the group or a member,
// and evidence keeps its keys in the rule's order. missing, when there is
// any, adds "notes": [{"feature","api","minVersion","minKafka","reason",
// "code","message"}], the reads the brokers cannot answer.
func DiagnoseJSON(w io.Writer, gs []DiagnosedGroup, missing ...kafka.Missing) error {
	doc := jsonDiagnoseDocument{Groups: make([]jsonDiagnoseGroup, 0, len(gs)), Notes: missingJSON(missing)}
	for i := range gs {
		g := jsonDiagnoseGroup{Group: gs[i].Group, GroupBase64: groupBase64(gs[i].Group), Findings: make([]jsonFinding, 0, len(gs[i].Findings))}
		if v := &gs[i].Verdict; diagnose.Pending(*v) != "" {
			g.Judging = &jsonJudging{Observations: v.Observations, Window: v.Window}
		}
		for j := range gs[i].Findings {
			f := &gs[i].Findings[j]
			jf := jsonFinding{ID: f.ID, Severity: f.Severity, Message: DiagnoseMessage(f), Evidence: f.Evidence, Next: DiagnoseNext(f)}
			if jf.Evidence == nil {
				jf.Evidence = diagnose.Evidence{}
			}
			if f.Topic != "" {
				jf.Topic = ptr(f.Topic)
			}
			if f.Partition >= 0 {
				jf.Partition = ptr(f.Partition)
			}
			g.Findings = append(g.Findings, jf)
		}
		doc.Groups = append(doc.Groups, g)
	}
	return EncodeJSON(w, doc)
}
