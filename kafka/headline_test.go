package kafka_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestHeadlineOfAStalePoll: once the cluster is gone, a poll fails with
// kgo's words for it; the status line's headline names the broker that
// refused, whichever request failed.
func TestHeadlineOfAStalePoll(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 0}})
	cl, err := kafka.Connect(context.Background(), config.Cluster{Name: "x", Brokers: c.Addrs[:1], RequestTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	// The first poll may see the connections close (EOF); the next ones
	// dial and are refused.
	var got string
	kafkatest.Eventually(t, "a refused poll", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		_, err := cl.Poll(ctx)
		if err == nil {
			return false
		}
		got = kafka.Headline(err)
		return got != err.Error()
	})
	want := map[string]bool{}
	for _, a := range c.Addrs {
		want["connection refused by "+a] = true
	}
	if !want[got] {
		t.Fatalf("headline %q, want connection refused by one of %v", got, c.Addrs)
	}
	if other := errors.New("list groups: NOT_COORDINATOR"); kafka.Headline(other) != other.Error() {
		t.Fatalf("headline of another error = %q", kafka.Headline(other))
	}
}

// TestHeadlineNamesTheCause: a poll that fails mid-session says what
// failed first, so that the status line shows it before anything is cut.
func TestHeadlineNamesTheCause(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("list groups: request ListGroups has 1 separate shard errors, first: %w", kerr.SaslAuthenticationFailed),
			"SASL authentication failed: check the credentials (list groups: request ListGroups has 1 separate shard errors, first: SASL_AUTHENTICATION_FAILED: SASL Authentication failed.)"},
		{fmt.Errorf("describe groups: unable to dial: %w", kerr.UnsupportedSaslMechanism),
			"SASL mechanism not enabled on the broker: check sasl.mechanism"},
		{fmt.Errorf("list groups: unable to dial: %w", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}),
			"TLS handshake failed: certificate signed by unknown authority (set tls.ca_file)"},
		{fmt.Errorf("list groups: unable to dial: %w", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}),
			"TLS handshake failed: the broker did not answer with TLS: it may not use TLS on this port (unset tls.enabled)"},
		{fmt.Errorf("describe producers: %w", kerr.UnsupportedVersion),
			"broker too old for a request kgroups sent (describe producers: UNSUPPORTED_VERSION: The version of API is not supported.)"},
	} {
		if got := kafka.Headline(tc.err); got != tc.want {
			t.Errorf("Headline(%v) =\n%q\nwant\n%q", tc.err, got, tc.want)
		}
	}
}
