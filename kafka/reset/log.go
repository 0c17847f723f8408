package reset

import (
	"context"
	"log/slog"

	"github.com/kgroups/kgroups/kafka"
)

// The write steps go to the client's debug trace, one record a step: the
// plan, the receipt written, the requests sent, the verified outcome. Names
// of groups and topics are written as they are; the text handler quotes
// and escapes what is not printable.

func logPlan(ctx context.Context, cl *kafka.Client, what string, p *Plan, err error) {
	log := cl.Log()
	if !log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	if err != nil {
		log.LogAttrs(ctx, slog.LevelDebug, "write plan refused", slog.String("what", what), slog.Any("err", err))
		return
	}
	s := p.Summary()
	log.LogAttrs(ctx, slog.LevelDebug, "write plan", slog.String("what", what), slog.String("group", p.Group),
		slog.String("type", string(p.Type)), slog.String("state", p.State), slog.String("scenario", p.Scenario.String()),
		slog.String("scope", p.Scope.String()), slog.Int("partitions", s.Partitions), slog.Int("changed", s.Changed),
		slog.Int("warnings", len(p.Warnings)))
}

func logStep(ctx context.Context, cl *kafka.Client, msg, group string, attrs ...slog.Attr) {
	log := cl.Log()
	if !log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	log.LogAttrs(ctx, slog.LevelDebug, msg, append([]slog.Attr{slog.String("group", group)}, attrs...)...)
}

func logApplied(ctx context.Context, cl *kafka.Client, group string, res *Result, err error) {
	if err != nil {
		logStep(ctx, cl, "write refused", group, slog.Any("err", err))
		return
	}
	t := res.Tally()
	logStep(ctx, cl, "write verify", group, slog.String("outcome", res.Outcome().String()),
		slog.Int("verified", t.Verified), slog.Int("refused", t.Refused), slog.Int("unknown", t.Unknown),
		slog.Int("changed_after", t.ChangedAfter), slog.String("receipt", res.ReceiptPath))
}

func countErrs[K comparable](errs map[K]error) int {
	n := 0
	for _, e := range errs {
		if e != nil {
			n++
		}
	}
	return n
}
