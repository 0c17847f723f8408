package kafka

import (
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

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
	// log is the debug trace (debuglog.Discard without --debug).
	log *slog.Logger
}

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

// Brokers returns the seed brokers the client was created with.
func (c *Client) Brokers() []string { return append([]string(nil), c.brokers...) }

// Timeout is the per-request timeout.
func (c *Client) Timeout() time.Duration { return c.timeout }

// Kgo exposes the underlying client for packages under kafka/ that need raw
// requests.
func (c *Client) Kgo() *kgo.Client { return c.cl }

// Admin exposes the kadm client for packages under kafka/.
func (c *Client) Admin() *kadm.Client { return c.adm }

// Close releases the connection.
func (c *Client) Close() { c.cl.Close() }
