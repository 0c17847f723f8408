package reset

import (
	"context"
	"errors"
	"fmt"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// lockGroup takes the receipts folder's lock on the group for the whole of
// one write (re-check, receipt, commit, re-read), so that two kgroups on
// one machine cannot interleave their writes to it. Another kgroups
// holding it is a *receipt.LockedError; a lock taken over from a process
// that died holding it is noted through opts.Note.
func lockGroup(ctx context.Context, cl *kafka.Client, group string, opts ApplyOptions) (*receipt.Lock, error) {
	id, err := cl.ClusterID(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: nothing was changed, because the group's lock is keyed by the cluster's id", err)
	}
	l, err := receipt.LockGroup(ctx, opts.ReceiptDir, receipt.Cluster{ID: id, Brokers: cl.Brokers()}, group)
	if err != nil {
		var le *receipt.LockedError
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: nothing was changed, because no change is made without a receipt", err)
	}
	if l.Note != "" && opts.Note != nil {
		opts.Note(l.Note)
	}
	return l, nil
}
