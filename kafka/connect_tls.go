package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/config"
)

// tlsOption builds the dial option for the context's TLS settings, or nil
// when TLS is off. File problems are reported against the setting's key.
func tlsOption(t config.TLSConfig) (kgo.Opt, error) {
	if !t.Enabled && t.CAFile == "" && t.CertFile == "" && t.KeyFile == "" && t.ServerName == "" && !t.InsecureSkipVerify {
		return nil, nil
	}
	cfg := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		ServerName:         t.ServerName,
		InsecureSkipVerify: t.InsecureSkipVerify, //nolint:gosec // the user asked for it by name
	}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("connect: tls.ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("connect: tls.ca_file: %s holds no PEM certificates", t.CAFile)
		}
		cfg.RootCAs = pool
	}
	switch {
	case t.CertFile != "" && t.KeyFile != "":
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("connect: tls.cert_file/tls.key_file: load client certificate %s and key %s: %w", t.CertFile, t.KeyFile, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	case t.CertFile != "":
		return nil, fmt.Errorf("connect: tls.cert_file is set without tls.key_file")
	case t.KeyFile != "":
		return nil, fmt.Errorf("connect: tls.key_file is set without tls.cert_file")
	}
	return kgo.DialTLSConfig(cfg), nil
}
