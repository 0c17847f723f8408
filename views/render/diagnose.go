package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
)

// DiagnosedGroup is one group's findings, as kafka/diagnose returned them
// (most severe first).
type DiagnosedGroup struct {
	Group    string
	Findings []diagnose.Finding
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

// DiagnoseColumns are the columns of `kgroups diagnose`'s table, one row a
// finding.
func DiagnoseColumns() []Column[DiagnoseRow] {
	return []Column[DiagnoseRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r DiagnoseRow) string { return text(r.Group) }},
		{Title: "SEVERITY", Align: left, Value: func(r DiagnoseRow) string { return r.Finding.Severity.String() }},
		{Title: "FINDING", Align: left, Value: func(r DiagnoseRow) string { return r.Finding.ID }},
		{Title: "WHERE", Align: left, Max: idMax, Value: func(r DiagnoseRow) string { return DiagnoseWhere(r.Finding) }},
		{Title: "MESSAGE", Align: left, Value: func(r DiagnoseRow) string { return r.Finding.Message }},
		{Title: "NEXT", Align: left, Value: func(r DiagnoseRow) string { return DiagnoseNext(r.Finding) }},
	}
}

// Diagnose writes the findings, one line each, grouped by group in the
// order given and, within a group, most severe first. Groups without a
// finding are named on one line each after the table, so that a healthy
// run still says what it looked at.
func Diagnose(w io.Writer, gs []DiagnosedGroup, lay Layout) error {
	var rows []DiagnoseRow
	var clean []string
	for i := range gs {
		if len(gs[i].Findings) == 0 {
			clean = append(clean, format.Sanitize(gs[i].Group))
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
	for _, g := range clean {
		out += fmt.Sprintf("%s: no findings\n", g)
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

type jsonDiagnoseDocument struct {
	Groups []jsonDiagnoseGroup `json:"groups"`
}

type jsonDiagnoseGroup struct {
	Group       string        `json:"group"`
	GroupBase64 string        `json:"groupBase64,omitempty"`
	Findings    []jsonFinding `json:"findings"`
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
// {"groups":[{"group":…,"findings":[{"id","severity","topic","partition","message","evidence","next"}]}]};
// topic and partition are null for a finding about the group or a member,
// and evidence keeps its keys in the rule's order.
func DiagnoseJSON(w io.Writer, gs []DiagnosedGroup) error {
	doc := jsonDiagnoseDocument{Groups: make([]jsonDiagnoseGroup, 0, len(gs))}
	for i := range gs {
		g := jsonDiagnoseGroup{Group: gs[i].Group, GroupBase64: groupBase64(gs[i].Group), Findings: make([]jsonFinding, 0, len(gs[i].Findings))}
		for j := range gs[i].Findings {
			f := &gs[i].Findings[j]
			jf := jsonFinding{ID: f.ID, Severity: f.Severity, Message: f.Message, Evidence: f.Evidence, Next: DiagnoseNext(f)}
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
