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
	// Client is the connection, when it is made before the service.
	Client *kafka.Client
	// Connect, when set, gives the connection instead of Client, at each
	// call, before anything is read or written: the UI opened while no
	// broker answered connects on the first call that needs it. Its
	// error is the call's.
	Connect kafka.Connector
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

// client is the service's connection: Connect's when it is set.
func (s *Service) client(ctx context.Context) (*kafka.Client, error) {
	if s.Connect != nil {
		return s.Connect(ctx)
	}
	return s.Client, nil
}

// Plan is Prepare on the service's cluster.
func (s *Service) Plan(ctx context.Context, req Request) (*Plan, error) {
	cl, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	return Prepare(ctx, cl, req)
}

// Apply is Apply on the service's cluster, with its receipts directory.
func (s *Service) Apply(ctx context.Context, p *Plan) (*Result, error) {
	cl, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	return Apply(ctx, cl, p, s.options())
}

// PlanDelete reads one group for deletion.
func (s *Service) PlanDelete(ctx context.Context, group string) (*GroupDeletion, error) {
	cl, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	ds, err := PrepareDeleteGroups(ctx, cl, []string{group}, time.Time{})
	if err != nil {
		return nil, err
	}
	return ds[0], nil
}

// ApplyDelete deletes one group, with a receipt of its offsets.
func (s *Service) ApplyDelete(ctx context.Context, d *GroupDeletion) (*DeleteResult, error) {
	cl, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	return ApplyDeleteGroup(ctx, cl, d, s.options())
}
