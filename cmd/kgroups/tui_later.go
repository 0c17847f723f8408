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
// UI's poller, exact-time-lag reader and record reader, and the connector
// of its writers (laterWriters) and Diagnosis reader.
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

// laterWriters are writers on a laterClient: the services connect through
// it, made at their first call if there is none yet. Without a receipts
// folder there are none, as with writers.
func laterWriters(cc config.Cluster, l *laterClient) tui.Writers {
	var w tui.Writers
	if dir, err := receipt.DefaultDir(); err == nil {
		w.Reset = &reset.Service{Connect: l.client, ReceiptDir: dir, Context: receiptContext(cc)}
		w.Members = &rebalance.Service{Connect: l.client, ReceiptDir: dir, Context: receiptContext(cc)}
	}
	return w
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
