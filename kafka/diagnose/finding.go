package diagnose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
)

// IDs are every finding id, in the order of their constants: what help
// texts and docs list (TestEveryFindingIsDocumented holds it to the
// constants).
var IDs = []string{
	IDRecordsLost, IDOpenTransaction, IDStalledAtRecord, IDBeyondLogEnd, IDUnassigned, IDLagSkew,
	IDRebalanceStorm, IDNoCommits, IDBehindRetention, IDMemberNotCommitting, IDSlowerThanProducers,
	IDLogReplaced,
}

// The finding ids. They are a contract with scripts: never rename one.
const (
	IDRecordsLost     = "records-lost-to-retention"
	IDOpenTransaction = "stuck-behind-open-transaction"
	IDStalledAtRecord = "stalled-at-record"
	IDBeyondLogEnd    = "offset-beyond-log-end"
	IDUnassigned      = "unassigned-partitions"
	IDLagSkew         = "lag-skew"
	IDRebalanceStorm  = "rebalance-storm"
	IDNoCommits       = "no-commits"
	IDBehindRetention = "consumer-behind-retention"
	// IDMemberNotCommitting: all or nearly all partitions a live member
	// owns stalled together; the member is the cause, not a record.
	IDMemberNotCommitting = "member-not-committing"
	// IDSlowerThanProducers: the group consumes slower than its
	// producers write.
	IDSlowerThanProducers = "slower-than-producers"
	// IDLogReplaced: a partition's log was replaced within the history
	// (the topic recreated, another cluster at the address); its history
	// started again there.
	IDLogReplaced        = "log-replaced"
	noPartition          = int32(-1)
	noOffset             = int64(-1)
	previewBytes         = 64
	defaultStorm         = 3
	defaultSkewShare     = 0.8
	defaultSkewNearZero  = 0.05
	defaultSkewMinLag    = 100
	defaultMarginPercent = 10
	defaultSlowerPercent = 10
)

// Finding is one cause the rules found for one group.
type Finding struct {
	ID string
	// Severity is WARN or ERR, on the scale of a group's verdict.
	Severity lag.Severity
	// Topic and Partition locate the finding; Topic is empty and
	// Partition -1 for a finding about the group or a member, and
	// Partition is -1 for one about a whole topic.
	Topic     string
	Partition int32
	// Member is the member id the finding concerns, if any.
	Member string
	// Offset is the offset of the record the finding concerns (the
	// record a stalled group is stuck on), or -1.
	Offset int64
	// Message is one sentence, in words and values the renderers word
	// (views/render.DiagnoseMessage); it may hold broker strings, so it
	// is sanitized where it is shown.
	Message Message
	// Evidence is the numbers (and ids) the finding rests on, in a fixed
	// order.
	Evidence Evidence
	// Next is the suggested commands, each a read or a dry run, one word
	// a slice element: renderers quote each word for a shell (and join
	// the commands with "; ").
	Next [][]string
}

// Field is one named piece of evidence. Value is an int64, float64,
// string, bool, nil, Evidence or []Evidence.
type Field struct {
	Key   string
	Value any
}

// Evidence is an ordered set of fields: it encodes as a JSON object whose
// keys keep this order, so scripts and diffs see a stable document.
type Evidence []Field

// Get returns the value of key, and false when there is none.
func (e Evidence) Get(key string) (any, bool) {
	for _, f := range e {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the fields as an object in their order.
func (e Evidence) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range e {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("evidence %s: %w", f.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Worst returns the highest severity among fs, and false when fs is empty.
func Worst(fs []Finding) (lag.Severity, bool) {
	if len(fs) == 0 {
		return lag.SeverityOK, false
	}
	w := lag.SeverityOK
	for i := range fs {
		w = max(w, fs[i].Severity)
	}
	return w, true
}

// Glance is what a list of groups shows of a group's findings at one
// glance: whether one is ERR, and the short cause of the most severe
// finding that has one (Cause) with that finding's severity.
type Glance struct {
	Err           bool
	Cause         string
	CauseSeverity lag.Severity
}

// For is the cause to show next to the verdict v: the glance's cause
// when v is a decided WARN or ERR and the finding is at least as severe,
// so that the words explain the verdict they stand next to (a WARN
// finding does not explain an ERR REWIND); "" otherwise.
func (g Glance) For(v *lag.Verdict) string {
	sev, ok := v.Decided()
	if !ok || sev < lag.SeverityWarn || g.Cause == "" || g.CauseSeverity < sev {
		return ""
	}
	return g.Cause
}

// causes are the findings short enough to stand next to a verdict: what
// the poll or cached reads already know. A stalled-at-record is not one
// (the record read decides how it is worded), nor no-commits (the
// verdict, WARN NO-COMMITS, says it already).
var causes = map[string]string{
	IDRecordsLost:         "lost to retention",
	IDOpenTransaction:     "open txn",
	IDBeyondLogEnd:        "past log end",
	IDMemberNotCommitting: "member not committing",
	IDSlowerThanProducers: "slower than producers",
	IDBehindRetention:     "near retention",
	IDUnassigned:          "unassigned partitions",
	IDRebalanceStorm:      "rebalance storm",
	IDLogReplaced:         "topic recreated",
}

// MaxCauseWidth is the width of the longest cause a glance can give: what
// a screen reserves so that a cause appearing moves no column.
func MaxCauseWidth() int {
	w := len(NoMembersCause(time.Time{}, false))
	for _, c := range causes {
		w = max(w, len(c))
	}
	return w
}

// Cause is the short cause of a finding ("open txn", "lost to
// retention", "member not committing", "slower than producers"), or ""
// when it has none.
func Cause(id string) string { return causes[id] }

// GlanceAt applies the rules to in and sums them up for a list: the
// groups screen at every poll with the poll alone (the tracker's verdict
// without its partitions, no extra reads), `kgroups health` with its
// window's verdicts and the stable offsets its polls read. Both call it,
// so both name the same cause.
//
// A STOP of a group without members is caused by that: "no members since
// 09:14:05", or "no members while watched" for one that had none at any
// poll (an archived group), whatever else the rules find.
func GlanceAt(in Input) Glance {
	fs := Diagnose(in)
	var g Glance
	for i := range fs {
		if fs[i].Severity == lag.SeverityErr {
			g.Err = true
		}
		if g.Cause == "" {
			g.Cause, g.CauseSeverity = Cause(fs[i].ID), fs[i].Severity // fs is most severe first
		}
	}
	if in.Verdict.Status == lag.StatusStop && !in.NoMembersSince.IsZero() {
		g.Cause, g.CauseSeverity = NoMembersCause(in.NoMembersSince, in.NoMembersWhole), lag.SeverityErr
	}
	return g
}

// NoMembersCause is a STOP's cause for a group without members: "no
// members since 09:14:05" (local time), or "no members while watched"
// when it had none at any poll watched.
func NoMembersCause(since time.Time, whole bool) string {
	if whole {
		return "no members while watched"
	}
	return "no members since " + since.Local().Format("15:04:05")
}

// Pending says why the rules cannot have found everything yet, for a
// group with no finding: "judging 3/10" while the verdict has fewer
// observations than its window (the rules that judge a trend need all of
// them), and "" once they have them, once the verdict is decided (an
// Empty group's standing commit is STOP on one observation) or waits for
// a reason of its own (lag.Wait), or when nothing can be judged.
func Pending(v lag.Verdict) string {
	if !v.Known || v.Window <= 0 || v.Observations >= v.Window || !v.Judging() || v.Wait.Kind != lag.WaitNone {
		return ""
	}
	return "judging " + strconv.Itoa(v.Observations) + "/" + strconv.Itoa(v.Window)
}

// HasErr reports whether the rules find an ERR finding in in. The groups
// list calls it for every group at every poll with the poll alone (the
// tracker's verdict without its partitions, no extra reads), so it marks
// what the snapshot shows: records lost to retention, a commit past the
// log end; a STALL already reads ERR in the group's health.
func HasErr(in Input) bool {
	w, ok := Worst(Diagnose(in))
	return ok && w == lag.SeverityErr
}
