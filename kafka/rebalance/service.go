package rebalance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/write"
)

// Service binds member removal to one cluster connection and one receipts
// directory, as reset.Service does for offsets, so that the CLI and the
// TUI's dialog remove members the same way: receipt first, then the
// removal, then the wait for the group to settle. Its fields are fixed
// after creation, so Cmds can capture it and call it from any goroutine.
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
	// Note, when set, hears what the caller should tell the user: a
	// group lock taken over from a process that died holding it.
	Note func(string)
}

// Removal is what Service.Remove did.
type Removal struct {
	// Receipt is the path of the receipt written before anything was sent.
	Receipt string
	// Results hold the broker's answer for each member of the plan and
	// the re-read that verifies it.
	Results []Result
}

// Outcome is the worst outcome of the removal.
func (r *Removal) Outcome() write.Outcome { return WorstOutcome(r.Results) }

// Removed returns the member ids verified removed.
func (r *Removal) Removed() []string {
	if r == nil {
		return nil
	}
	return Removed(r.Results)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Remove writes the plan's receipt and only then removes the members, so
// every removal leaves a record; when the receipt cannot be written it
// sends nothing and returns no Removal. Otherwise the Removal names the
// receipt, with Remove's results and error.
func (s *Service) Remove(ctx context.Context, p *Plan) (*Removal, error) {
	cl, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	if err := cl.Require(ctx, kafka.FeatureRemoveMembers); err != nil {
		return nil, refused(err)
	}
	unlock, clusterID, err := s.lock(ctx, cl, p.Group)
	if err != nil {
		return nil, err
	}
	defer unlock()
	log := cl.Log()
	log.Debug("write plan", "what", "remove members", "group", p.Group, "type", string(p.Type), "state", p.State, "members", len(p.Targets))
	rc := p.Receipt(cl.Brokers(), s.Context, s.now())
	rc.ClusterID = clusterID
	path, err := receipt.Write(s.ReceiptDir, rc)
	if err != nil {
		log.Debug("write refused", "group", p.Group, "err", err)
		return nil, fmt.Errorf("nothing was sent: %w", err)
	}
	log.Debug("write receipt", "group", p.Group, "path", path)
	defer write.Begin("member removal from group "+p.Group, path)()
	results, err := Remove(ctx, cl, p)
	log.Debug("write apply", "group", p.Group, "members", len(results), "err", err)
	Verify(ctx, cl, p, results)
	log.Debug("write verify", "group", p.Group, "outcome", WorstOutcome(results).String())
	return &Removal{Receipt: path, Results: results}, err
}

// Wait is Wait on the service's cluster: it polls the group until it has
// settled after the removal of removed (member ids).
func (s *Service) Wait(ctx context.Context, p *Plan, removed []string, opts WaitOptions) (*Outcome, error) {
	cl, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	out, err := Wait(ctx, cl, p, removed, opts)
	cl.Log().Debug("write settle", "group", p.Group, "removed", len(removed), "err", err)
	return out, err
}

// client is the service's connection: Connect's when it is set.
func (s *Service) client(ctx context.Context) (*kafka.Client, error) {
	if s.Connect != nil {
		return s.Connect(ctx)
	}
	return s.Client, nil
}

// lock takes the receipts folder's lock on the group while its members are
// removed, as kafka/reset does for offsets, so that two kgroups on one
// machine cannot interleave their writes to one group. Another kgroups
// holding it is a *receipt.LockedError.
func (s *Service) lock(ctx context.Context, cl *kafka.Client, group string) (unlock func(), clusterID string, err error) {
	id, err := cl.ClusterID(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("nothing was sent: %w", err)
	}
	l, err := receipt.LockGroup(ctx, s.ReceiptDir, receipt.Cluster{ID: id, Brokers: cl.Brokers()}, group)
	if err != nil {
		var le *receipt.LockedError
		if errors.As(err, &le) {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("nothing was sent: %w", err)
	}
	if l.Note != "" && s.Note != nil {
		s.Note(l.Note)
	}
	return func() { _ = l.Unlock() }, id, nil
}

// refused is a write that brokers too old for it refuse before anything
// is sent.
func refused(err error) error {
	return fmt.Errorf("%w: nothing was sent and no receipt was written", err)
}
