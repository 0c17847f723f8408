package kafka

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kgroups/kgroups/config"
)

// explain turns a failed first request into an error that says what is
// wrong and what to change. reqErr is what the request returned; connErr is
// the last failed connection attempt, which usually holds the real cause.
func explain(reqErr, connErr error, c config.Cluster, timeout time.Duration) error {
	cause := connErr
	if cause == nil {
		cause = reqErr
	}
	tried := strings.Join(c.Brokers, ", ")
	mech := strings.ToUpper(c.SASL.Mechanism)

	switch {
	case errors.Is(reqErr, context.Canceled) && connErr == nil:
		return fmt.Errorf("connect to %s: canceled", tried)

	case errors.Is(cause, kerr.SaslAuthenticationFailed):
		return saslFailed(c, mech, cause)
	case errors.Is(cause, kerr.UnsupportedSaslMechanism):
		return fmt.Errorf("SASL mechanism %s is not enabled on the broker (tried %s): check sasl.mechanism", mech, tried)
	case errors.Is(cause, kerr.IllegalSaslState):
		return fmt.Errorf("SASL authentication failed for user %q with mechanism %s (tried %s): the broker rejected the exchange", c.SASL.Username, mech, tried)
	}

	var hs *handshakeError
	if errors.As(cause, &hs) && (errors.Is(hs.err, context.DeadlineExceeded) || isTimeout(hs.err)) {
		return fmt.Errorf("TLS handshake with %s did not complete within %s: the broker may not use TLS on this port (unset tls.enabled)", hs.addr, timeout/2)
	}
	if tlsErr := explainTLS(cause, c); tlsErr != "" {
		return fmt.Errorf("TLS handshake with %s failed: %s", tried, tlsErr)
	}

	if closedByPeer(cause) {
		switch {
		case mech != "":
			// A broker drops the connection on bad credentials
			// (some without an error code), so with SASL on the
			// credentials are the likely cause.
			return saslFailed(c, mech, cause)
		case !c.TLS.Enabled:
			return fmt.Errorf("connection to %s closed by broker: it may require TLS (set tls.enabled) or SASL (set sasl.mechanism): %w", tried, cause)
		default:
			return fmt.Errorf("connection to %s closed by broker: it may require SASL (set sasl.mechanism) or a client certificate (set tls.cert_file and tls.key_file): %w", tried, cause)
		}
	}

	if addr := refusedBy(cause); addr != "" {
		return unreachableError{fmt.Errorf("connection refused by %s (tried %s): nothing listens there; check the brokers setting and that Kafka is running", addr, tried)}
	}
	if host, why := lookupFailed(cause); host != "" {
		return unreachableError{fmt.Errorf("DNS lookup of %s failed: %s (tried %s): check the brokers setting and the name server", host, why, tried)}
	}
	if tooOld(cause) {
		return fmt.Errorf("broker too old (tried %s): it does not support the request versions kgroups needs (Kafka 2.4 or later): %w", tried, cause)
	}
	if isDialErr(cause) || errors.Is(reqErr, context.DeadlineExceeded) || errors.Is(cause, context.DeadlineExceeded) {
		return unreachableError{fmt.Errorf("no answer from %s within %s: the brokers may be down, or a firewall may drop the connection: %w", tried, timeout, cause)}
	}
	return fmt.Errorf("connect to %s: %w", tried, cause)
}

// lookupFailed is the host name whose DNS lookup failed in err and why
// ("no such host"), or "" when err is no lookup failure.
func lookupFailed(err error) (host, why string) {
	var dns *net.DNSError
	if !errors.As(err, &dns) {
		return "", ""
	}
	why = dns.Err
	if dns.IsNotFound {
		why = "no such host"
	}
	return dns.Name, why
}

// tooOld reports whether a broker refused a request version kgroups needs.
func tooOld(err error) bool {
	return errors.Is(err, kerr.UnsupportedVersion) || strings.Contains(err.Error(), "broker is too old")
}

// Headline is err said briefly, for a status line that shows the brokers
// already, cause and host first so that they fit: a connection refused
// anywhere in err, whichever request it failed, is "connection refused by
// HOST:PORT", a failed DNS lookup "DNS lookup of HOST failed: no such
// host", a connection that timed out "no answer from HOST:PORT (connection
// timed out)", a rejected login "SASL authentication failed: ...", a
// certificate or handshake problem "TLS handshake failed: ...", a request
// the broker is too old for "broker too old ..."; any other error is its
// own text.
func Headline(err error) string {
	if addr := refusedBy(err); addr != "" {
		return "connection refused by " + addr
	}
	if host, why := lookupFailed(err); host != "" {
		return "DNS lookup of " + host + " failed: " + why
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" && op.Addr != nil && isTimeout(err) {
		return "no answer from " + op.Addr.String() + " (connection timed out)"
	}
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed), errors.Is(err, kerr.IllegalSaslState):
		return "SASL authentication failed: check the credentials (" + scrubCause(err) + ")"
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		return "SASL mechanism not enabled on the broker: check sasl.mechanism"
	}
	if why := explainTLS(err, config.Cluster{}); why != "" {
		return "TLS handshake failed: " + why
	}
	if tooOld(err) {
		return "broker too old for a request kgroups sent (" + scrubCause(err) + ")"
	}
	return err.Error()
}

// ErrUnreachable is matched (errors.Is) by a Connect error that says no
// broker answered at all: nothing listened, or nothing answered within the
// timeout. Trying again later may work, unlike with a bad certificate or
// bad credentials, which Connect reports without it.
var ErrUnreachable = errors.New("no broker answered")

type unreachableError struct{ err error }

func (e unreachableError) Error() string   { return e.err.Error() }
func (e unreachableError) Unwrap() []error { return []error{e.err, ErrUnreachable} }

func saslFailed(c config.Cluster, mech string, cause error) error {
	user := c.SASL.Username
	if mech == config.MechanismOAuthBearer || mech == config.MechanismAWSMSKIAM {
		return fmt.Errorf("SASL authentication failed with mechanism %s (tried %s): check the credentials: %v", mech, strings.Join(c.Brokers, ", "), scrubCause(cause))
	}
	return fmt.Errorf("SASL authentication failed for user %q with mechanism %s (tried %s): check the username and password: %v", user, mech, strings.Join(c.Brokers, ", "), scrubCause(cause))
}

// scrubCause keeps the broker's short reason. The password never reaches an
// error (kgo sends it, the broker does not echo it), but a broker message
// is foreign text, so only its first line is kept.
func scrubCause(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// explainTLS recognises certificate and handshake failures and says which
// setting fixes them; "" when err is not a TLS problem.
func explainTLS(err error, c config.Cluster) string {
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var alert tls.AlertError
	var recHdr tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownCA):
		if c.TLS.CAFile != "" {
			return fmt.Sprintf("certificate signed by unknown authority (tls.ca_file %s does not hold the CA that signed the broker's certificate)", c.TLS.CAFile)
		}
		return "certificate signed by unknown authority (set tls.ca_file)"
	case errors.As(err, &hostErr):
		return fmt.Sprintf("%v (set tls.server_name to a name in the certificate)", hostErr)
	case errors.As(err, &invalid):
		return fmt.Sprintf("broker certificate is not valid: %v", invalid)
	case errors.As(err, &verify):
		return fmt.Sprintf("broker certificate could not be verified: %v", verify.Err)
	case errors.As(err, &recHdr):
		return "the broker did not answer with TLS: it may not use TLS on this port (unset tls.enabled)"
	case errors.As(err, &alert) || strings.Contains(err.Error(), "remote error: tls:"):
		msg := err.Error()
		switch {
		case c.TLS.CertFile == "" && (strings.Contains(msg, "certificate required") || strings.Contains(msg, "bad certificate") || strings.Contains(msg, "handshake failure")):
			return "the broker requires a client certificate (set tls.cert_file and tls.key_file)"
		case strings.Contains(msg, "certificate required"):
			// The client only offers a certificate issued by a CA
			// the broker named as acceptable.
			return fmt.Sprintf("the broker requires a client certificate signed by a CA it trusts, and tls.cert_file %s is not: %v", c.TLS.CertFile, err)
		case strings.Contains(msg, "certificate") || strings.Contains(msg, "unknown ca"):
			return fmt.Sprintf("the broker rejected the client certificate %s: %v", c.TLS.CertFile, err)
		}
		return fmt.Sprintf("the broker refused the handshake: %v", err)
	}
	if strings.Contains(err.Error(), "first record does not look like a TLS handshake") {
		return "the broker did not answer with TLS: it may not use TLS on this port (unset tls.enabled)"
	}
	return ""
}

// permanent reports whether a connection failure will not go away by
// retrying: certificate problems, TLS alerts, a handshake that never
// completes, and SASL rejections.
func permanent(err error) bool {
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var hs *handshakeError
	if errors.As(err, &hs) && (errors.Is(hs.err, context.DeadlineExceeded) || isTimeout(hs.err)) {
		return true
	}
	return errors.As(err, &unknownCA) || errors.As(err, &hostErr) || errors.As(err, &invalid) || errors.As(err, &verify) ||
		strings.Contains(err.Error(), "remote error: tls:") ||
		errors.Is(err, kerr.SaslAuthenticationFailed) || errors.Is(err, kerr.UnsupportedSaslMechanism) || errors.Is(err, kerr.IllegalSaslState)
}

// closedByPeer reports whether the broker closed or reset the connection.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, net.ErrClosed)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func isDialErr(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// refusedBy is the address that refused a connection (nothing listens on
// that port), "" when err is not a refusal.
func refusedBy(err error) string {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" || !errors.Is(err, syscall.ECONNREFUSED) || op.Addr == nil {
		return ""
	}
	return op.Addr.String()
}
