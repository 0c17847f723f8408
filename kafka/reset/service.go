package reset

import (
	"context"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// Service binds planning and applying to one cluster connection and one
// receipts directory, so that a caller holding it (the TUI's reset wizard)
// needs nothing else. Its fields are fixed after creation, so Cmds can
// capture it and call it from any goroutine.
type Service struct {
	Client *kafka.Client
	// ReceiptDir is where receipts go; see receipt.DefaultDir.
	ReceiptDir string
	// Context names the configuration context, for receipts.
	Context string
	// Now is the clock for receipts; nil means time.Now.
	Now func() time.Time
}

func (s *Service) options() ApplyOptions {
	return ApplyOptions{ReceiptDir: s.ReceiptDir, Context: s.Context, Now: s.Now}
}

// Plan is Prepare on the service's cluster.
func (s *Service) Plan(ctx context.Context, req Request) (*Plan, error) {
	return Prepare(ctx, s.Client, req)
}

// Apply is Apply on the service's cluster, with its receipts directory.
func (s *Service) Apply(ctx context.Context, p *Plan) (*Result, error) {
	return Apply(ctx, s.Client, p, s.options())
}

// PlanDelete reads one group for deletion.
func (s *Service) PlanDelete(ctx context.Context, group string) (*GroupDeletion, error) {
	ds, err := PrepareDeleteGroups(ctx, s.Client, []string{group}, time.Time{})
	if err != nil {
		return nil, err
	}
	return ds[0], nil
}

// ApplyDelete deletes one group, with a receipt of its offsets.
func (s *Service) ApplyDelete(ctx context.Context, d *GroupDeletion) (*DeleteResult, error) {
	return ApplyDeleteGroup(ctx, s.Client, d, s.options())
}
