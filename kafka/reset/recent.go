package reset

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// MaxRecentReceipts bounds how many receipts RecentResets reads.
const MaxRecentReceipts = 64

// receiptTimeLayout is how receipt.WriteRecord starts a receipt's name.
const receiptTimeLayout = "20060102T150405.000Z"

// RecentResets reads the receipts in dir of the offset changes made to
// cluster (bootstrap brokers; any overlap counts, nil takes every cluster)
// at or after since that can move a committed offset back (resets and
// undos), oldest first, from the newest MaxRecentReceipts files. The time and action
// come from the file names receipt.WriteRecord gives, so other files are
// not opened. A missing directory holds none; a receipt that cannot be read
// or fails its checks (ReadReceipt without force) is skipped: it explains
// nothing.
func RecentResets(ctx context.Context, dir string, cluster []string, since time.Time) ([]*Receipt, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	from := since.UTC().Truncate(time.Millisecond)
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || len(name) <= len(receiptTimeLayout) || !strings.HasSuffix(name, ".json") {
			continue
		}
		at, err := time.Parse(receiptTimeLayout, name[:len(receiptTimeLayout)])
		rest := name[len(receiptTimeLayout):]
		if err != nil || at.Before(from) ||
			!(strings.HasPrefix(rest, "-"+receipt.ActionReset+"-") || strings.HasPrefix(rest, "-"+receipt.ActionUndo+"-")) {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names) // by time: the names start with it
	if len(names) > MaxRecentReceipts {
		names = names[len(names)-MaxRecentReceipts:]
	}
	var out []*Receipt
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r, _, err := ReadReceipt(ctx, filepath.Join(dir, name), false)
		if err != nil || r.Time.Before(from) || (cluster != nil && !sameCluster(r.Cluster, cluster)) {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// LagReset is the receipt as the lag history takes it (lag.History
// NoteReset), so that a REWIND it caused names it.
func (r *Receipt) LagReset() lag.Reset {
	lr := lag.Reset{Time: r.Time, Receipt: r.Path}
	for _, o := range r.Offsets {
		ro := lag.ResetOffset{Topic: o.Topic, Partition: o.Partition, Before: kafka.NoOffset, After: kafka.NoOffset}
		if o.Before != nil {
			ro.Before = *o.Before
		}
		if o.After != nil {
			ro.After = *o.After
		}
		lr.Offsets = append(lr.Offsets, ro)
	}
	return lr
}
