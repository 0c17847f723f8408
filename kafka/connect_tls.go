package kafka

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/debuglog"
)

// dialOption dials brokers with a timeout and, when TLS is on, performs the
// handshake itself so that a handshake failure can be told apart from a
// failure to reach the broker at all.
func dialOption(ctx context.Context, t config.TLSConfig, timeout time.Duration, log *slog.Logger) (kgo.Opt, error) {
	tlsCfg, err := tlsConfig(ctx, t, log)
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: timeout}
	return kgo.Dialer(func(ctx context.Context, network, host string) (net.Conn, error) {
		raw, err := d.DialContext(ctx, network, host)
		if err != nil || tlsCfg == nil {
			return raw, err
		}
		c := tlsCfg.Clone()
		if c.ServerName == "" {
			if h, _, err := net.SplitHostPort(host); err == nil {
				c.ServerName = h
			}
		}
		// Half the budget: a broker that has not finished a handshake
		// by then is almost surely not speaking TLS, and the rest of
		// the budget lets the request report that instead of a bare
		// deadline.
		hctx, cancel := context.WithTimeout(ctx, timeout/2)
		defer cancel()
		conn := tls.Client(raw, c)
		if err := conn.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, &handshakeError{addr: host, err: err}
		}
		return conn, nil
	}), nil
}

// handshakeError is a TLS handshake failure with a broker that was reached.
type handshakeError struct {
	addr string
	err  error
}

func (e *handshakeError) Error() string { return "TLS handshake with " + e.addr + ": " + e.err.Error() }
func (e *handshakeError) Unwrap() error { return e.err }

// tlsConfig builds the client TLS configuration, or nil when TLS is off.
// File problems are reported against the setting's key; the files are read
// within ctx, so a FIFO or a hung network file stops with the run.
// The client key is registered with log's redactor as it is read.
func tlsConfig(ctx context.Context, t config.TLSConfig, log *slog.Logger) (*tls.Config, error) {
	if !t.Enabled && t.CAFile == "" && t.CertFile == "" && t.KeyFile == "" && t.ServerName == "" && !t.InsecureSkipVerify {
		return nil, nil
	}
	cfg := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		ServerName:         t.ServerName,
		InsecureSkipVerify: t.InsecureSkipVerify, //nolint:gosec // the user asked for it by name
	}
	if t.CAFile != "" {
		pem, err := config.ReadSecretFile(ctx, "tls.ca_file", t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("connect: tls.ca_file: %s holds no PEM certificates", t.CAFile)
		}
		cfg.RootCAs = pool
	}
	switch {
	case t.CertFile != "" && t.KeyFile != "":
		certPEM, err := config.ReadSecretFile(ctx, "tls.cert_file", t.CertFile)
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		keyPEM, err := config.ReadSecretFile(ctx, "tls.key_file", t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		redactKey(log, keyPEM)
		cert, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, fmt.Errorf("connect: tls.cert_file/tls.key_file: load client certificate %s and key %s: %w", t.CertFile, t.KeyFile, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	case t.CertFile != "":
		return nil, fmt.Errorf("connect: tls.cert_file is set without tls.key_file")
	case t.KeyFile != "":
		return nil, fmt.Errorf("connect: tls.key_file is set without tls.cert_file")
	}
	return cfg, nil
}

// redactKey registers a PEM key with log's redactor: the whole text and
// each line of its base64 body, so that no piece of it can reach the log.
func redactKey(log *slog.Logger, pem []byte) {
	if !debuglog.On(log) {
		return
	}
	text := strings.TrimSpace(string(pem))
	secrets := []string{text}
	for line := range strings.SplitSeq(text, "\n") {
		if line = strings.TrimSpace(line); len(line) >= 16 && !strings.HasPrefix(line, "-----") {
			secrets = append(secrets, line)
		}
	}
	debuglog.Redact(log, secrets...)
}
