package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/tui"
)

// laterClient is the connection of a UI opened while no broker answered:
// each poll tries kafka.Connect again until one succeeds (the UI shows the
// error and retries with its backoff), then keeps that client. It is the
// UI's poller, exact-time-lag reader and, through laterReset and
// laterMembers, its writers.
type laterClient struct {
	cc  config.Cluster
	log *slog.Logger

	mu     sync.Mutex
	cl     *kafka.Client
	closed bool
}

// errUIClosed answers a connection made after the UI closed.
var errUIClosed = errors.New("the UI is closed")

// client is the connection, made now if there is none yet. The lock is not
// held while connecting, so that Close never waits for a connection
// attempt; of two attempts that both succeed, the first is kept.
func (l *laterClient) client(ctx context.Context) (*kafka.Client, error) {
	l.mu.Lock()
	cl, closed := l.cl, l.closed
	l.mu.Unlock()
	switch {
	case closed:
		return nil, errUIClosed
	case cl != nil:
		return cl, nil
	}
	cl, err := kafka.ConnectLogged(ctx, l.cc, l.log)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		cl.Close()
		return nil, errUIClosed
	case l.cl != nil:
		cl.Close()
		return l.cl, nil
	}
	l.cl = cl
	return cl, nil
}

// Poll connects if need be, then takes a snapshot.
func (l *laterClient) Poll(ctx context.Context) (*kafka.Snapshot, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.Poll(ctx)
}

// CommittedTimestamps connects if need be, then reads the records.
func (l *laterClient) CommittedTimestamps(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.CommittedTimestamps(ctx, parts)
}

// The UI's record viewer reads through the poller, whichever it is.
var (
	_ tui.RecordPeeker = (*laterClient)(nil)
	_ tui.RecordPeeker = (*kafka.Client)(nil)
)

// Peek connects if need be, then reads the records.
func (l *laterClient) Peek(ctx context.Context, req kafka.PeekRequest) (kafka.PeekResult, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return kafka.PeekResult{}, err
	}
	return cl.Peek(ctx, req)
}

// Close closes the connection, if one was made.
func (l *laterClient) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.cl != nil {
		l.cl.Close()
		l.cl = nil
	}
}

// laterWriters are writers on a laterClient: each call uses the
// connection, made now if there is none yet. Without a receipts folder there
// are none, as with writers.
func laterWriters(cc config.Cluster, l *laterClient) tui.Writers {
	var w tui.Writers
	if dir, err := receipt.DefaultDir(); err == nil {
		w.Reset = laterReset{l: l, dir: dir, name: cc.Name}
		w.Members = laterMembers{l: l, dir: dir, name: cc.Name}
	}
	return w
}

type laterReset struct {
	l         *laterClient
	dir, name string
}

func (r laterReset) service(ctx context.Context) (*reset.Service, error) {
	cl, err := r.l.client(ctx)
	if err != nil {
		return nil, err
	}
	return &reset.Service{Client: cl, ReceiptDir: r.dir, Context: r.name}, nil
}

func (r laterReset) Plan(ctx context.Context, req reset.Request) (*reset.Plan, error) {
	s, err := r.service(ctx)
	if err != nil {
		return nil, err
	}
	return s.Plan(ctx, req)
}

func (r laterReset) Apply(ctx context.Context, p *reset.Plan) (*reset.Result, error) {
	s, err := r.service(ctx)
	if err != nil {
		return nil, err
	}
	return s.Apply(ctx, p)
}

func (r laterReset) PlanDelete(ctx context.Context, group string) (*reset.GroupDeletion, error) {
	s, err := r.service(ctx)
	if err != nil {
		return nil, err
	}
	return s.PlanDelete(ctx, group)
}

func (r laterReset) ApplyDelete(ctx context.Context, d *reset.GroupDeletion) (*reset.DeleteResult, error) {
	s, err := r.service(ctx)
	if err != nil {
		return nil, err
	}
	return s.ApplyDelete(ctx, d)
}

type laterMembers struct {
	l         *laterClient
	dir, name string
}

func (r laterMembers) service(ctx context.Context) (*rebalance.Service, error) {
	cl, err := r.l.client(ctx)
	if err != nil {
		return nil, err
	}
	return &rebalance.Service{Client: cl, ReceiptDir: r.dir, Context: r.name}, nil
}

func (r laterMembers) Remove(ctx context.Context, p *rebalance.Plan) (*rebalance.Removal, error) {
	s, err := r.service(ctx)
	if err != nil {
		return nil, err
	}
	return s.Remove(ctx, p)
}

func (r laterMembers) Wait(ctx context.Context, p *rebalance.Plan, removed []string, opts rebalance.WaitOptions) (*rebalance.Outcome, error) {
	s, err := r.service(ctx)
	if err != nil {
		return nil, err
	}
	return s.Wait(ctx, p, removed, opts)
}

// laterDiagnosis is the Diagnosis tab's reader on a laterClient: it
// connects if need be, then reads with one diagnosisReader for the
// connection's life.
type laterDiagnosis struct {
	l  *laterClient
	mu sync.Mutex
	rd *diagnose.Reader
}

var _ tui.DiagnosisReader = (*laterDiagnosis)(nil)

// Read connects if need be, then makes the reads.
func (d *laterDiagnosis) Read(ctx context.Context, w diagnose.Wants) (*diagnose.Reads, error) {
	cl, err := d.l.client(ctx)
	if err != nil {
		return &diagnose.Reads{}, err
	}
	d.mu.Lock()
	if d.rd == nil {
		d.rd = diagnosisReader(cl)
	}
	rd := d.rd
	d.mu.Unlock()
	return rd.Read(ctx, w)
}
