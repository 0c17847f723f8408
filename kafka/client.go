// Package kafka is kgroups' connection to a cluster (franz-go kgo and
// kadm): Connect, the poll that reads every group into one Snapshot with a
// request count bounded by brokers, the records read at commits (Peek,
// CommittedTimestamps), and the group types with what each supports. The
// domain rules built on it live in its sub-packages.
package kafka

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka/debuglog"
)

// Client is a read-mostly connection to one cluster. It never joins a
// group: it has no group configured and only sends admin requests.
type Client struct {
	cl      *kgo.Client
	adm     *kadm.Client
	brokers []string
	timeout time.Duration
	strs    strTable // broker strings shared from poll to poll
	// rows are the groups' rows at the latest full poll, which the next
	// gives a group whose rows did not change (rowMemo).
	rows rowMemo
	// forget turns the memo off (ForgetRows).
	forget atomic.Bool
	// scratch is the spare builders and name lists of the next poll.
	scratch scratchSlot
	// log is the debug trace (debuglog.Discard without --debug).
	log *slog.Logger
	// clusterID is the cluster id the connection's first metadata gave;
	// ClusterID reads it when the client was not made by Connect.
	idMu      sync.Mutex
	clusterID string
	// versions is what every broker answers (BrokerVersions), read once.
	versionsMu sync.Mutex
	versions   *kversion.Versions
	// midPoll runs once in each poll (SetMidPoll); nil for none.
	midPoll func()
}

// Connector gives the connection to use, made when it is first asked for
// if need be, so that a service holding one can be made before any broker
// answers (the UI opened while none did). Its error is the connection's.
type Connector func(ctx context.Context) (*Client, error)

// NewClient wraps an existing kgo client (used by tests and the demo, which
// build their own). timeout bounds each request; 0 means 10s.
func NewClient(cl *kgo.Client, brokers []string, timeout time.Duration) *Client {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &Client{cl: cl, adm: kadm.NewClient(cl), brokers: brokers, timeout: timeout, log: debuglog.Discard}
}

// Log is the client's debug trace, never nil: the packages under kafka/
// (the write services, the diagnosis reads) log through the client they
// were given.
func (c *Client) Log() *slog.Logger { return c.log }

// ForgetRows stops the client remembering each group's rows for the next
// poll (rowMemo), for an owner that lets go of each snapshot before it
// takes the next: `kgroups serve` collects as a poll starts, so the memo's
// weak pointers are always gone by the next poll, and remembering them
// (a map of 10,000 names, a weak pointer each, every poll) and looking
// them up again bought nothing. The rows are the same either way; only
// which memory holds a group's unchanged rows differs.
func (c *Client) ForgetRows() { c.forget.Store(true) }

// SetMidPoll has fn run once in every poll, as soon as the first of the
// poll's two large reads is in: the describes, their answers made into the
// groups, or the committed offsets' answers, before they are made into
// rows; whichever comes first (the two run at once). By then the start-up,
// the metadata, the listing and the coordinator lookups are garbage, and so
// are the answers of the describes when they came first. A one-shot
// command collects there (cmd/kgroups/gc.go). fn may run on a goroutine of
// the poll's own; set it before the first poll.
func (c *Client) SetMidPoll(fn func()) { c.midPoll = fn }

// midPollOnce is what the poll calls where SetMidPoll's fn may run: the
// first call runs it, the others nothing. Both of the poll's goroutines
// call it.
func (c *Client) midPollOnce() func() {
	if c.midPoll == nil {
		return func() {}
	}
	return sync.OnceFunc(c.midPoll)
}

// Brokers returns the seed brokers the client was created with.
func (c *Client) Brokers() []string { return append([]string(nil), c.brokers...) }

// Timeout is the per-request timeout.
func (c *Client) Timeout() time.Duration { return c.timeout }

// Kgo exposes the underlying client for packages under kafka/ that need raw
// requests.
func (c *Client) Kgo() *kgo.Client { return c.cl }

// Admin exposes the kadm client for packages under kafka/.
func (c *Client) Admin() *kadm.Client { return c.adm }

// ClusterID is the id of the cluster the client is connected to, as its
// metadata says ("" from a broker before Kafka 0.10.1, which has none): the
// cluster's identity, however its brokers are spelled. It is read once,
// when Connect proves the cluster answers, or on first use.
func (c *Client) ClusterID(ctx context.Context) (string, error) {
	c.idMu.Lock()
	defer c.idMu.Unlock()
	if c.clusterID != "" {
		return c.clusterID, nil
	}
	mctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	id, err := ping(mctx, c.cl)
	if err != nil {
		return "", fmt.Errorf("read the cluster id: %w", err)
	}
	c.clusterID = id
	return id, nil
}

// Close releases the connection.
func (c *Client) Close() { c.cl.Close() }
