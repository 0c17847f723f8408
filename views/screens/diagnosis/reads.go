package diagnosis

import (
	"errors"
	"maps"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
)

// RetentionRefresh is how long the tab keeps a topic's retention.ms
// before it asks for it again.
const RetentionRefresh = 5 * time.Minute

// reads are the tab's extra reads, asked of the root with
// ui.DiagnosisRequestMsg. The tab reads nothing until it has been on show
// once (it gets a ui.TabShownMsg or a key); from then on it asks after
// each poll for what diagnose.Want says the rules need and the tab does
// not hold, with at most one request in flight:
//
//   - producers and transactions of a partition whose stable offset trails
//     the log end, again only when that stable offset has moved;
//   - retention.ms of a topic, again after RetentionRefresh;
//   - the record at a stalled commit, once per (topic, partition, offset).
//
// A poll that brings nothing new asks for nothing. A read that fails is
// not asked again until what it was for changes (a new stable offset, a
// new commit, RetentionRefresh).
type reads struct {
	shown    bool
	inflight uint64
	// want is what the latest refresh found missing.
	want diagnose.Wants
	// asked are the stable offsets the request in flight was made at.
	asked map[diagnose.TP]int64

	txns      map[diagnose.TP]txnRead
	producers map[int64]diagnose.Transaction
	retention map[string]retentionRead
	records   map[kafka.CommitKey]diagnose.Record
	err       error
	// lacking are the reads the brokers cannot answer (too old, denied),
	// said on the tab's first line; kept, as the brokers will say so
	// again.
	lacking []kafka.Missing
}

type txnRead struct {
	stable    int64
	producers []diagnose.Producer
}

type retentionRead struct {
	ms    int64
	known bool
	at    time.Time
}

func newReads() reads {
	return reads{
		txns: make(map[diagnose.TP]txnRead), producers: make(map[int64]diagnose.Transaction),
		retention: make(map[string]retentionRead), records: make(map[kafka.CommitKey]diagnose.Record),
	}
}

// missing keeps of w what the tab does not hold.
func (r *reads) missing(w diagnose.Wants, stable map[diagnose.TP]diagnose.StableOffsets, now time.Time) diagnose.Wants {
	var out diagnose.Wants
	for _, tp := range w.Transactions {
		if t, ok := r.txns[tp]; !ok || t.stable != stable[tp].Last {
			out.Transactions = append(out.Transactions, tp)
		}
	}
	for _, topic := range w.Retention {
		if t, ok := r.retention[topic]; !ok || now.Sub(t.at) >= RetentionRefresh {
			out.Retention = append(out.Retention, topic)
		}
	}
	for _, k := range w.Records {
		if _, ok := r.records[k]; !ok {
			out.Records = append(out.Records, k)
		}
	}
	return out
}

// fill puts into rs what the tab holds for its partitions.
func (r *reads) fill(rs *diagnose.Reads) {
	rs.Producers = make(map[diagnose.TP][]diagnose.Producer)
	rs.Transactions = r.producers
	rs.Records = r.records
	rs.Missing = r.lacking
	rs.Retention = make(map[string]int64, len(r.retention))
	for tp, s := range rs.Stable {
		if t, ok := r.txns[tp]; ok && t.stable == s.Last {
			rs.Producers[tp] = t.producers
		}
	}
	for topic, t := range r.retention {
		if t.known {
			rs.Retention[topic] = t.ms
		}
	}
}

// ask sends the request for what is missing, when the tab has been on
// show and no request is in flight.
func (m *Model) ask() tea.Cmd {
	if !m.shown || m.inflight != 0 || m.want.Empty() {
		return nil
	}
	m.asked = make(map[diagnose.TP]int64, len(m.want.Transactions))
	for _, tp := range m.want.Transactions {
		m.asked[tp] = m.stable[tp].offset
	}
	req := ui.DiagnosisRequestMsg{ID: ui.NewRequestID(), Owner: m, Group: m.group, Wants: m.want}
	m.inflight = req.ID
	return func() tea.Msg { return req }
}

// answer keeps what a read brought; false for a late answer.
func (m *Model) answer(msg ui.DiagnosisMsg) bool {
	if msg.ID != m.inflight {
		return false
	}
	m.inflight = 0
	m.answers++
	m.err = msg.Err
	rs := msg.Reads
	if rs == nil {
		rs = &diagnose.Reads{}
	}
	for _, l := range rs.Missing {
		m.lacking = kafka.AddMissing(m.lacking, l)
	}
	for _, tp := range msg.Wants.Transactions {
		m.txns[tp] = txnRead{stable: m.asked[tp], producers: rs.Producers[tp]}
	}
	for id, t := range rs.Transactions {
		m.producers[id] = t
	}
	at := time.Time{}
	if m.snap != nil {
		at = m.snap.Time
	}
	for _, topic := range msg.Wants.Retention {
		ms, ok := rs.Retention[topic]
		m.retention[topic] = retentionRead{ms: ms, known: ok, at: at}
	}
	for _, k := range msg.Wants.Records {
		rec, ok := rs.Records[k]
		if !ok {
			rec = diagnose.Record{Offset: k.Offset, Err: msg.Err}
		}
		m.records[k] = rec
	}
	return true
}

// readState says where the findings come from, for the tab's first line.
func (m *Model) readState() []string {
	switch {
	case m.inflight != 0:
		return []string{"from the polls, reading transactions, retention and records"}
	case errors.Is(m.err, ui.ErrNoDiagnosisReads):
		return []string{"from the polls alone (this connection makes no diagnosis reads)"}
	case errors.Is(m.err, ui.ErrNotRecorded):
		return []string{"from the recorded polls alone (producers, transactions, retention and records were not recorded)"}
	case m.err != nil:
		return []string{"a read failed: " + format.Sanitize(m.err.Error())}
	case !m.shown:
		return []string{"from the polls"}
	}
	return []string{"from the polls and reads"}
}

// notes are the lines under the tab's first line for each read the
// brokers cannot answer, what is missing and why, wrapped to the width.
func (m *Model) notes() []string {
	if !m.known || len(m.lacking) == 0 {
		return nil
	}
	var out []string
	for _, l := range m.lacking {
		for i, line := range format.Wrap("note: "+l.Text(), max(m.Width-4, 20)) {
			if i == 0 {
				out = append(out, "  "+line)
			} else {
				out = append(out, "    "+line)
			}
		}
	}
	return out
}

// clone copies what the tab holds, for a scratch tab off the UI loop; the
// request in flight stays the tab's.
func (r *reads) clone() reads {
	return reads{
		want: r.want, txns: maps.Clone(r.txns), producers: maps.Clone(r.producers),
		retention: maps.Clone(r.retention), records: maps.Clone(r.records), err: r.err,
		lacking: slices.Clone(r.lacking),
	}
}
