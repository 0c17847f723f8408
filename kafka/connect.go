package kafka

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/aws"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/debuglog"
)

// metadataMinAge is short because kgroups is a long-running inspector: new
// brokers and partition leaders should show up within a refresh or two.
const metadataMinAge = 2 * time.Second

// Connect opens a client for the context and proves the cluster answers, so
// a wrong address, password or TLS setting fails here with a message that
// names the cause, within the context's request timeout, rather than as a
// hang or an opaque error on the first screen. extra options are appended
// (tests add hooks). The client never joins a group.
func Connect(ctx context.Context, c config.Cluster, extra ...kgo.Opt) (*Client, error) {
	return ConnectLogged(ctx, c, nil, extra...)
}

// ConnectLogged is Connect with the debug trace log (nil for none): the
// attempt and its outcome are logged, every secret the context resolves is
// registered with log's redactor before anything is dialled, franz-go logs
// there through kgo.WithLogger, and the client keeps log for its polls and
// reads.
func ConnectLogged(ctx context.Context, c config.Cluster, log *slog.Logger, extra ...kgo.Opt) (cl *Client, err error) {
	log = debuglog.Or(log)
	debuglog.Redact(log, c.SASL.Password, c.SASL.Token, c.SASL.PasswordCmd)
	start := time.Now()
	log.Debug("connect", "context", c.Name, "brokers", c.Brokers, "tls", c.TLS.Enabled, "sasl", c.SASL.Mechanism, "client_id", c.ClientID)
	defer func() {
		if err != nil {
			log.Debug("connect failed", "context", c.Name, "duration", time.Since(start), "err", err)
			return
		}
		cl.log = log
		log.Debug("connected", "context", c.Name, "duration", time.Since(start))
	}()
	return connect(ctx, c, log, extra)
}

func connect(ctx context.Context, c config.Cluster, log *slog.Logger, extra []kgo.Opt) (*Client, error) {
	timeout := c.RequestTimeout
	if timeout <= 0 {
		timeout = config.DefaultRequestTimeout
	}
	clientID := c.ClientID
	if clientID == "" {
		clientID = config.DefaultClientID
	}
	if len(c.Brokers) == 0 {
		return nil, errors.New("connect: no brokers configured")
	}

	// Secrets first, within the request timeout: a password command that
	// outlives it is killed (with its process group).
	sctx, scancel := context.WithTimeout(ctx, timeout)
	mech, err := saslMechanism(sctx, c.SASL, log)
	scancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%w (the request timeout is %s: --timeout or request_timeout)", err, timeout)
		}
		return nil, err
	}

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	pingCtx, stopPing := context.WithCancel(ctx)
	defer stopPing()

	dialErrs := &connErrors{stop: stopPing, sasl: c.SASL.Mechanism != "", log: log}
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.Brokers...),
		kgo.ClientID(clientID),
		kgo.RequestTimeoutOverhead(timeout),
		kgo.RetryTimeout(timeout),
		kgo.MetadataMinAge(metadataMinAge),
		kgo.WithHooks(dialErrs),
	}
	dial, err := dialOption(ctx, c.TLS, timeout, log)
	if err != nil {
		return nil, err
	}
	opts = append(opts, dial)
	if mech != nil {
		opts = append(opts, kgo.SASL(mech))
	}
	if kl := debuglog.Kgo(log); kl != nil {
		opts = append(opts, kgo.WithLogger(kl))
	}
	opts = append(opts, extra...)

	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	id, err := ping(pingCtx, cl)
	if err != nil {
		cl.Close()
		return nil, explain(err, dialErrs.last(), c, timeout)
	}
	out := NewClient(cl, append([]string(nil), c.Brokers...), timeout)
	out.clusterID = id
	return out, nil
}

// ping sends one metadata request (no topics) to any broker and returns
// the cluster id it gives ("" from a broker before Kafka 0.10.1).
func ping(ctx context.Context, cl *kgo.Client) (string, error) {
	req := kmsg.NewPtrMetadataRequest()
	req.Topics = []kmsg.MetadataRequestTopic{}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return "", err
	}
	if len(resp.Brokers) == 0 {
		return "", errors.New("metadata lists no brokers")
	}
	if resp.ClusterID == nil {
		return "", nil
	}
	return *resp.ClusterID, nil
}

// saslMechanism resolves the context's SASL secret and registers it with
// log's redactor.
func saslMechanism(ctx context.Context, s config.SASLConfig, log *slog.Logger) (sasl.Mechanism, error) {
	switch strings.ToUpper(s.Mechanism) {
	case "":
		return nil, nil
	case config.MechanismPlain, config.MechanismScramSHA256, config.MechanismScramSHA512:
		pass, err := s.ResolvePassword(ctx)
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		debuglog.Redact(log, pass)
		switch strings.ToUpper(s.Mechanism) {
		case config.MechanismPlain:
			return plain.Auth{User: s.Username, Pass: pass}.AsMechanism(), nil
		case config.MechanismScramSHA256:
			return scram.Auth{User: s.Username, Pass: pass}.AsSha256Mechanism(), nil
		default:
			return scram.Auth{User: s.Username, Pass: pass}.AsSha512Mechanism(), nil
		}
	case config.MechanismOAuthBearer:
		token, err := s.ResolveToken(ctx)
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		debuglog.Redact(log, token)
		return oauth.Auth{Token: token}.AsMechanism(), nil
	case config.MechanismAWSMSKIAM:
		auth := func(ctx context.Context) (aws.Auth, error) {
			a, err := awsAuthFromEnv(ctx)
			debuglog.Redact(log, a.SecretKey, a.SessionToken)
			return a, err
		}
		if _, err := auth(ctx); err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		// Read the environment per connection so refreshed session
		// credentials are picked up by new connections.
		return aws.ManagedStreamingIAM(auth), nil
	}
	return nil, fmt.Errorf("connect: unknown SASL mechanism %q (accepted: %s)", s.Mechanism, strings.Join(config.Mechanisms, ", "))
}

// awsAuthFromEnv reads the standard AWS credential variables, the way the
// AWS SDKs do first, so no SDK is needed.
func awsAuthFromEnv(context.Context) (aws.Auth, error) {
	a := aws.Auth{
		AccessKey:    os.Getenv("AWS_ACCESS_KEY_ID"),
		SecretKey:    os.Getenv("AWS_SECRET_ACCESS_KEY"),
		SessionToken: os.Getenv("AWS_SESSION_TOKEN"),
		UserAgent:    "kgroups",
	}
	if a.AccessKey == "" || a.SecretKey == "" {
		return aws.Auth{}, errors.New("sasl: AWS_MSK_IAM needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment (and AWS_SESSION_TOKEN for temporary credentials)")
	}
	return a, nil
}

// connErrors remembers the most recent failed connection attempt: when a
// request gives up, its own error is often only "context deadline exceeded",
// while the dial or handshake error says why. It also ends the first request
// early (through stop) once a failure is plainly not transient, such as an
// untrusted certificate or rejected credentials, rather than letting kgo
// retry until the timeout.
type connErrors struct {
	stop context.CancelFunc
	sasl bool
	// log hears every connection attempt; nil for none.
	log *slog.Logger

	mu     sync.Mutex
	err    error
	closed int
}

// closedLimit is how many times a broker may close a fresh SASL connection
// before kgroups concludes it is rejecting the credentials (some brokers
// just hang up instead of answering with an error code).
const closedLimit = 3

func (h *connErrors) OnBrokerConnect(meta kgo.BrokerMetadata, dialed time.Duration, _ net.Conn, err error) {
	if h.log != nil {
		h.log.Debug("broker connection", "broker", meta.NodeID, "addr", net.JoinHostPort(meta.Host, strconv.Itoa(int(meta.Port))), "duration", dialed, "err", err)
	}
	if err == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.err = err
	if closedByPeer(err) {
		h.closed++
	}
	if permanent(err) || (h.sasl && h.closed >= closedLimit) {
		h.stop()
	}
}

func (h *connErrors) last() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

var _ kgo.HookBrokerConnect = (*connErrors)(nil)
