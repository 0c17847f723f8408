package kafka

import (
	"context"
	"log/slog"
	"time"
)

// logPoll writes one record for a poll: how long it took, how many groups,
// partitions and errors it saw (only groups named when only is set). The
// counting walks the snapshot once, and only when the trace is on; nothing
// is logged per group or partition.
func (c *Client) logPoll(ctx context.Context, only []string, snap *Snapshot, err error) {
	if !c.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	if err != nil {
		c.log.LogAttrs(ctx, slog.LevelDebug, "poll failed", slog.Int("only", len(only)), slog.Any("err", err))
		return
	}
	var parts, groupErrs, partErrs int
	var firstErr error
	for i := range snap.Groups {
		g := &snap.Groups[i]
		parts += len(g.Partitions)
		if g.Err != nil {
			groupErrs++
			if firstErr == nil {
				firstErr = g.Err
			}
		}
		for j := range g.Partitions {
			if e := g.Partitions[j].Err; e != nil {
				partErrs++
				if firstErr == nil {
					firstErr = e
				}
			}
		}
	}
	attrs := []slog.Attr{
		slog.Duration("duration", snap.Duration),
		slog.Int("brokers", len(snap.Brokers)),
		slog.Int("groups", len(snap.Groups)),
		slog.Int("partitions", parts),
		slog.Int("group_errors", groupErrs),
		slog.Int("partition_errors", partErrs),
	}
	if only != nil {
		attrs = append(attrs, slog.Int("only", len(only)))
	}
	if firstErr != nil {
		attrs = append(attrs, slog.Any("first_error", firstErr))
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "poll", attrs...)
}

// logExact writes one record for a read of the records at commits
// (CommittedTimestamps): how many partitions were asked for, how many
// answered, how many failed, and how long it took.
func (c *Client) logExact(ctx context.Context, asked int, start time.Time, got map[CommitKey]RecordTime, err error) {
	if !c.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	failed := 0
	var firstErr error
	for _, rt := range got {
		if rt.Err != nil {
			failed++
			if firstErr == nil {
				firstErr = rt.Err
			}
		}
	}
	attrs := []slog.Attr{
		slog.Duration("duration", time.Since(start)),
		slog.Int("asked", asked),
		slog.Int("read", len(got)-failed),
		slog.Int("failed", failed),
	}
	if firstErr != nil {
		attrs = append(attrs, slog.Any("first_error", firstErr))
	}
	if err != nil {
		attrs = append(attrs, slog.Any("err", err))
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "exact read", attrs...)
}
