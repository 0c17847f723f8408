package tui

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	kreset "github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/screens/resetwizard"
	"github.com/kgroups/kgroups/views/ui"
)

// resetLog collects the resets the wizard made, from the Cmds that apply
// them, until the next poll result hands them to the lag tracker: a REWIND
// that a reset done here caused then names its receipt instead of looking
// like a consumer's fault. One log belongs to one connection.
type resetLog struct {
	mu      sync.Mutex
	pending []noted
}

type noted struct {
	group string
	reset lag.Reset
}

func (l *resetLog) add(group string, r lag.Reset) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, noted{group, r})
}

// drain writes every pending reset to m's poll data, and marks its receipt
// noted so that reading it from the receipts folder does not note it
// again.
func (l *resetLog) drain(m *Model, noted map[string]bool) {
	l.mu.Lock()
	pending := l.pending
	l.pending = nil
	l.mu.Unlock()
	for _, n := range pending {
		if !noted[n.reset.Receipt] {
			noted[n.reset.Receipt] = true
			m.write(op{group: n.group, reset: &n.reset})
		}
	}
}

// receiptScan reads the receipts folder for resets another kgroups made
// (`kgroups reset --execute` in another terminal), once a poll shows a
// REWIND, so that the REWIND they caused names them too. One scan is in
// flight at a time; the folder is only listed when its modification time
// changed. It belongs to one connection.
type receiptScan struct {
	id       uint64          // answers with another id are a previous connection's
	since    time.Time       // the connection's first poll: older resets explain nothing seen
	mod      time.Time       // the folder's modification time at the last listing
	inFlight bool            // a scan is running
	noted    map[string]bool // receipts already noted, by path
}

func newReceiptScan() receiptScan {
	return receiptScan{id: ui.NewRequestID(), noted: make(map[string]bool)}
}

// receiptsMsg is a scan's answer: the folder's modification time and the
// resets found (none when it did not change).
type receiptsMsg struct {
	id       uint64
	mod      time.Time
	receipts []*kreset.Receipt
}

// scanReceipts starts a scan after a poll that judged some group REWIND.
func (m *Model) scanReceipts(s *kafka.Snapshot) tea.Cmd {
	sc := &m.receipts
	if sc.since.IsZero() {
		sc.since = s.Time
	}
	if m.opts.Receipts == "" || sc.inFlight || !m.anyRewind(s) {
		return nil
	}
	sc.inFlight = true
	dir, cluster, since, mod, id, ctx := m.opts.Receipts, slices.Clone(m.opts.Brokers), sc.since, sc.mod, sc.id, m.ctx
	return func() tea.Msg {
		st, err := os.Stat(dir)
		if err != nil || st.ModTime().Equal(mod) {
			return receiptsMsg{id: id, mod: mod}
		}
		rs, _ := kreset.RecentResets(ctx, dir, cluster, since)
		return receiptsMsg{id: id, mod: st.ModTime(), receipts: rs}
	}
}

// anyRewind reports whether the tracker judged some group of s REWIND.
func (m *Model) anyRewind(s *kafka.Snapshot) bool {
	for i := range s.Groups {
		if m.lag.Group(s, i).Status == lag.StatusRewind {
			return true
		}
	}
	return false
}

// onReceipts notes the resets a scan found; the next poll's verdicts and
// screens name them.
func (m *Model) onReceipts(msg receiptsMsg) {
	sc := &m.receipts
	if msg.id != sc.id {
		return
	}
	sc.inFlight, sc.mod = false, msg.mod
	for _, r := range msg.receipts {
		if !sc.noted[r.Path] {
			sc.noted[r.Path] = true
			lr := r.LagReset()
			m.write(op{group: r.Group, reset: &lr})
		}
	}
}

// recordResets is the wizard's backend with every applied reset noted in
// log. Deletions remove the group and its offsets: nothing rewinds.
type recordResets struct {
	resetwizard.Backend
	log *resetLog
}

// Apply implements resetwizard.Backend.
func (b recordResets) Apply(ctx context.Context, p *kreset.Plan) (*kreset.Result, error) {
	res, err := b.Backend.Apply(ctx, p)
	if res != nil && res.ReceiptPath != "" {
		b.log.add(res.Group, lagReset(res))
	}
	return res, err
}

// lagReset is what the lag history needs of a reset's result: when, the
// receipt, and each partition's offset before and after as re-read.
func lagReset(res *kreset.Result) lag.Reset {
	r := lag.Reset{Time: res.Time, Receipt: res.ReceiptPath}
	for _, p := range res.Partitions {
		if p.ReadErr != nil {
			continue
		}
		r.Offsets = append(r.Offsets, lag.ResetOffset{Topic: p.Topic, Partition: p.Partition, Before: p.Before, After: p.Got})
	}
	return r
}
