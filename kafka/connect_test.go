package kafka_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// connTimeout is generous: these tests assert what the error says, never how
// long it took. A TLS handshake may take half of it before it counts as
// one that never completes (explain): under the race detector on a
// machine at a load of 19, a handshake with the test's broker took more
// than 2.5 s.
const connTimeout = 20 * time.Second

func connCluster(t *testing.T, opts ...kfake.Opt) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(3)}, opts...)...)
	if err != nil {
		t.Fatalf("start kfake: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

func connContext(c *kfake.Cluster) config.Cluster {
	return config.Cluster{
		Name:           "test",
		Brokers:        c.ListenAddrs(),
		RequestTimeout: connTimeout,
	}
}

var topicSeq atomic.Int64

// proveWorks runs real admin calls over the connection: it creates a topic
// and reads it back with its exact partition count, and lists groups.
func proveWorks(t *testing.T, cl *kafka.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	adm := cl.Admin()
	topic := fmt.Sprintf("connect-check-%d", topicSeq.Add(1))
	if _, err := adm.CreateTopic(ctx, 3, 1, nil, topic); err != nil {
		t.Fatalf("create topic: %v", err)
	}
	topics, err := adm.ListTopics(ctx, topic)
	if err != nil {
		t.Fatalf("list topics: %v", err)
	}
	if got := len(topics[topic].Partitions); got != 3 {
		t.Fatalf("%s has %d partitions, want 3", topic, got)
	}
	groups, err := adm.ListGroups(ctx)
	if err != nil {
		t.Fatalf("list groups: %v", err)
	}
	if len(groups) != 0 {
		t.Fatalf("ListGroups = %v, want no groups on a fresh cluster", groups.Groups())
	}
	if got := cl.Brokers(); len(got) != 3 {
		t.Fatalf("client seed brokers = %v, want the 3 configured", got)
	}
	if cl.Timeout() != connTimeout {
		t.Fatalf("client timeout = %s, want %s", cl.Timeout(), connTimeout)
	}
}

func mustConnect(t *testing.T, c config.Cluster) *kafka.Client {
	t.Helper()
	cl, err := kafka.Connect(context.Background(), c)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func mustFail(t *testing.T, c config.Cluster, wants ...string) error {
	t.Helper()
	cl, err := kafka.Connect(context.Background(), c)
	if err == nil {
		cl.Close()
		t.Fatalf("Connect succeeded, want an error containing %q", wants)
	}
	t.Logf("Connect error: %v", err)
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("Connect error = %q\nwant it to contain %q", err, w)
		}
	}
	return err
}

func TestConnectPlaintext(t *testing.T) {
	c := connCluster(t)
	cl := mustConnect(t, connContext(c))
	proveWorks(t, cl)
}

func TestConnectSASL(t *testing.T) {
	const user, pass, wrong = "alice", "Corr3ct-h0rse-battery", "Wr0ng-pa55word-guess"
	for _, mech := range []string{config.MechanismPlain, config.MechanismScramSHA256, config.MechanismScramSHA512} {
		t.Run(mech, func(t *testing.T) {
			c := connCluster(t, kfake.EnableSASL(), kfake.Superuser(mech, user, pass))

			t.Run("right password", func(t *testing.T) {
				cc := connContext(c)
				cc.SASL = config.SASLConfig{Mechanism: mech, Username: user, Password: pass}
				proveWorks(t, mustConnect(t, cc))
			})

			t.Run("wrong password", func(t *testing.T) {
				cc := connContext(c)
				cc.SASL = config.SASLConfig{Mechanism: mech, Username: user, Password: wrong}
				err := mustFail(t, cc,
					fmt.Sprintf("SASL authentication failed for user %q with mechanism %s", user, mech),
					c.ListenAddrs()[0])
				if errors.Is(err, kafka.ErrUnreachable) {
					t.Errorf("rejected credentials are reported as unreachable: %v", err)
				}
				for _, secret := range []string{wrong, pass} {
					if strings.Contains(err.Error(), secret) {
						t.Fatalf("error reveals a password: %q", err)
					}
				}
			})

			t.Run("no SASL configured", func(t *testing.T) {
				_ = mustFail(t, connContext(c), "closed by broker", "SASL (set sasl.mechanism)")
			})
		})
	}
}

// TestConnectPasswordSources resolves the password from each kind of
// reference and authenticates with it.
func TestConnectPasswordSources(t *testing.T) {
	const user, pass = "bob", "fr0m-a-s0urce"
	c := connCluster(t, kfake.EnableSASL(), kfake.Superuser(config.MechanismScramSHA512, user, pass))
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	if err := os.WriteFile(file, []byte(pass+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KGROUPS_TEST_PW", pass)
	for name, s := range map[string]config.SASLConfig{
		"password_env":  {PasswordEnv: "KGROUPS_TEST_PW"},
		"password_file": {PasswordFile: file},
		"password_cmd":  {PasswordCmd: "cat " + file},
	} {
		t.Run(name, func(t *testing.T) {
			cc := connContext(c)
			s.Mechanism, s.Username = config.MechanismScramSHA512, user
			cc.SASL = s
			proveWorks(t, mustConnect(t, cc))
		})
	}
	t.Run("failing password_cmd", func(t *testing.T) {
		cc := connContext(c)
		cc.SASL = config.SASLConfig{Mechanism: config.MechanismScramSHA512, Username: user, PasswordCmd: "echo " + pass + "; exit 3"}
		err := mustFail(t, cc, "sasl.password_cmd: command failed (exit status 3)")
		if strings.Contains(err.Error(), pass) {
			t.Fatalf("error reveals the command's output: %q", err)
		}
	})
}

func TestConnectTLS(t *testing.T) {
	pki := newTestPKI(t)
	serverTLS := &tls.Config{Certificates: []tls.Certificate{pki.server}, MinVersion: tls.VersionTLS12}
	c := connCluster(t, kfake.TLS(serverTLS))

	t.Run("with ca_file", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.caFile}
		proveWorks(t, mustConnect(t, cc))
	})
	t.Run("without ca_file", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true}
		err := mustFail(t, cc, "TLS handshake with", "certificate signed by unknown authority (set tls.ca_file)")
		if errors.Is(err, kafka.ErrUnreachable) {
			t.Errorf("a certificate problem is reported as unreachable: %v", err)
		}
	})
	t.Run("wrong ca_file", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.otherCAFile}
		_ = mustFail(t, cc, "certificate signed by unknown authority (tls.ca_file "+pki.otherCAFile+" does not hold the CA")
	})
	t.Run("wrong server_name", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.caFile, ServerName: "kafka.example.com"}
		_ = mustFail(t, cc, "kafka.example.com", "set tls.server_name to a name in the certificate")
	})
	t.Run("insecure_skip_verify", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, InsecureSkipVerify: true}
		proveWorks(t, mustConnect(t, cc))
	})
	t.Run("TLS not configured", func(t *testing.T) {
		_ = mustFail(t, connContext(c), "closed by broker: it may require TLS (set tls.enabled)")
	})
	t.Run("TLS against a plaintext broker", func(t *testing.T) {
		plain := connCluster(t)
		cc := connContext(plain)
		cc.RequestTimeout = 2 * time.Second
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.caFile}
		_ = mustFail(t, cc, "did not complete within 1s: the broker may not use TLS on this port (unset tls.enabled)")
	})
	t.Run("missing ca_file", func(t *testing.T) {
		cc := connContext(c)
		missing := filepath.Join(t.TempDir(), "nope.pem")
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: missing}
		_ = mustFail(t, cc, "tls.ca_file", missing)
	})
}

func TestConnectMTLS(t *testing.T) {
	pki := newTestPKI(t)
	serverTLS := &tls.Config{
		Certificates: []tls.Certificate{pki.server},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    pki.pool,
		MinVersion:   tls.VersionTLS12,
	}
	c := connCluster(t, kfake.TLS(serverTLS))

	t.Run("with client certificate", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.caFile, CertFile: pki.clientCertFile, KeyFile: pki.clientKeyFile}
		proveWorks(t, mustConnect(t, cc))
	})
	t.Run("without client certificate", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.caFile}
		_ = mustFail(t, cc, "the broker requires a client certificate (set tls.cert_file and tls.key_file)")
	})
	t.Run("client certificate from another CA", func(t *testing.T) {
		cc := connContext(c)
		cc.TLS = config.TLSConfig{Enabled: true, CAFile: pki.caFile, CertFile: pki.otherClientCertFile, KeyFile: pki.otherClientKeyFile}
		_ = mustFail(t, cc, "the broker requires a client certificate signed by a CA it trusts, and tls.cert_file "+pki.otherClientCertFile+" is not")
	})
}

func TestConnectUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now

	cc := config.Cluster{Name: "gone", Brokers: []string{addr}, RequestTimeout: 2 * time.Second}
	want := fmt.Sprintf("connection refused by %s (tried %s): nothing listens there; check the brokers setting and that Kafka is running", addr, addr)
	if err := mustFail(t, cc, want); err.Error() != want || !errors.Is(err, kafka.ErrUnreachable) {
		t.Errorf("Connect error = %q (unreachable: %v), want exactly %q, unreachable", err, errors.Is(err, kafka.ErrUnreachable), want)
	}
}

func TestConnectCanceled(t *testing.T) {
	c := connCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cl, err := kafka.Connect(ctx, connContext(c))
	if err == nil {
		cl.Close()
		t.Fatal("Connect with a canceled context succeeded")
	}
	if !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("error = %q, want it to say the connection was canceled", err)
	}
}

// testPKI holds a CA, a server certificate for 127.0.0.1 signed by it, a
// client certificate signed by it, and a second, unrelated CA with its own
// client certificate.
type testPKI struct {
	pool                                    *x509.CertPool
	server                                  tls.Certificate
	caFile, otherCAFile                     string
	clientCertFile, clientKeyFile           string
	otherClientCertFile, otherClientKeyFile string
}

func newTestPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	ca, caKey := newCA(t, "kgroups test CA")
	other, otherKey := newCA(t, "unrelated CA")

	var p testPKI
	p.pool = x509.NewCertPool()
	p.pool.AddCert(ca)
	p.caFile = writePEM(t, dir, "ca.pem", "CERTIFICATE", ca.Raw)
	p.otherCAFile = writePEM(t, dir, "other-ca.pem", "CERTIFICATE", other.Raw)

	serverDER, serverKey := newLeaf(t, ca, caKey, "127.0.0.1", x509.ExtKeyUsageServerAuth)
	p.server = tls.Certificate{Certificate: [][]byte{serverDER}, PrivateKey: serverKey}

	clientDER, clientKey := newLeaf(t, ca, caKey, "kgroups-client", x509.ExtKeyUsageClientAuth)
	p.clientCertFile = writePEM(t, dir, "client.pem", "CERTIFICATE", clientDER)
	p.clientKeyFile = writePEM(t, dir, "client-key.pem", "PRIVATE KEY", marshalKey(t, clientKey))

	otherDER, otherClientKey := newLeaf(t, other, otherKey, "intruder", x509.ExtKeyUsageClientAuth)
	p.otherClientCertFile = writePEM(t, dir, "intruder.pem", "CERTIFICATE", otherDER)
	p.otherClientKeyFile = writePEM(t, dir, "intruder-key.pem", "PRIVATE KEY", marshalKey(t, otherClientKey))
	return p
}

var serial int64

func nextSerial() *big.Int { serial++; return big.NewInt(serial) }

func newCA(t *testing.T, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          nextSerial(),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

func newLeaf(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, name string, usage x509.ExtKeyUsage) ([]byte, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: nextSerial(),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	if ip := net.ParseIP(name); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return der, key
}

func marshalKey(t *testing.T, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConnectSASLErrorCode covers brokers that answer bad credentials with
// SASL_AUTHENTICATION_FAILED (as Apache Kafka does) instead of hanging up.
func TestConnectSASLErrorCode(t *testing.T) {
	const user, pass = "carol", "N0t-this-0ne"
	c := connCluster(t, kfake.EnableSASL(), kfake.Superuser(config.MechanismPlain, user, "something-else"))
	c.ControlKey(int16(kmsg.SASLAuthenticate), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		resp := kreq.ResponseKind().(*kmsg.SASLAuthenticateResponse)
		resp.ErrorCode = kerr.SaslAuthenticationFailed.Code
		msg := "Authentication failed: Invalid username or password"
		resp.ErrorMessage = &msg
		return resp, nil, true
	})
	cc := connContext(c)
	cc.SASL = config.SASLConfig{Mechanism: config.MechanismPlain, Username: user, Password: pass}
	err := mustFail(t, cc,
		`SASL authentication failed for user "carol" with mechanism PLAIN`,
		"Invalid username or password")
	if strings.Contains(err.Error(), pass) {
		t.Fatalf("error reveals the password: %q", err)
	}
}

// TestConnectMechanismNotEnabled uses mechanisms kfake does not offer, which
// is what a broker without that listener configuration answers.
func TestConnectMechanismNotEnabled(t *testing.T) {
	c := connCluster(t, kfake.EnableSASL(), kfake.Superuser(config.MechanismScramSHA256, "admin", "admin"))
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("eyJhbGciOiJub25lIn0.e30.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
	for _, s := range []config.SASLConfig{
		{Mechanism: config.MechanismOAuthBearer, TokenFile: tokenFile},
		{Mechanism: config.MechanismAWSMSKIAM},
	} {
		t.Run(s.Mechanism, func(t *testing.T) {
			cc := connContext(c)
			cc.SASL = s
			err := mustFail(t, cc, "SASL mechanism "+s.Mechanism+" is not enabled on the broker")
			if strings.Contains(err.Error(), "wJalrXUtnFEMI") || strings.Contains(err.Error(), "eyJhbGci") {
				t.Fatalf("error reveals a credential: %q", err)
			}
		})
	}
}
