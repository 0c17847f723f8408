package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kgroups/kgroups/config"
)

// A receipt is a file that can come from anywhere. These tests plant one
// that names a listener of the attacker's: a relay in front of the real,
// SASL-only cluster that records every byte a client sends it, so that a
// client that authenticated there would hand it the password. kgroups,
// run with the operator's SASL credentials in the environment, must send
// that listener nothing but unauthenticated requests, on a dry run and on
// --execute, whatever the flags.

const (
	plantedUser = "opsuser-7f3a"
	plantedPass = "Pw-9c1e-do-not-leak"
)

// recordingRelay forwards connections to target and keeps every byte
// clients sent.
type recordingRelay struct {
	addr  string
	mu    sync.Mutex
	got   bytes.Buffer
	conns int
}

func startRecordingRelay(t *testing.T, target string) *recordingRelay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recordingRelay{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.conns++
			r.mu.Unlock()
			up, err := net.Dial("tcp", target)
			if err != nil {
				_ = c.Close()
				continue
			}
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, _ = io.Copy(c, up)
				_ = c.Close()
			}()
			go func() {
				defer wg.Done()
				buf := make([]byte, 4096)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						r.mu.Lock()
						r.got.Write(buf[:n])
						r.mu.Unlock()
						_, _ = up.Write(buf[:n])
					}
					if err != nil {
						_ = up.Close()
						return
					}
				}
			}()
		}
	}()
	return r
}

func (r *recordingRelay) received() (conns int, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conns, bytes.Clone(r.got.Bytes())
}

// plantReceipt rewrites the receipt at path to name brokers, and seals it
// again with a correct checksum, as anyone can: only the signature, which
// needs the user's key, is left stale.
func plantReceipt(t *testing.T, path string, brokers []string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	cluster, _ := json.MarshalIndent(brokers, "  ", "  ")
	var kept []string
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, `  "cluster": [`):
			for !strings.HasPrefix(lines[i], "  ],") {
				i++
			}
			kept = append(kept, `  "cluster": `+string(cluster)+",")
		default:
			kept = append(kept, l)
		}
	}
	planted := filepath.Join(t.TempDir(), "planted.json")
	writeFile(t, planted, reseal(t, strings.Join(kept, "\n")))
	return planted
}

// editReceipt writes a copy of the receipt at path with old replaced by
// repl and its checksum made right again.
func editReceipt(t *testing.T, path, old, repl string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%q not in %s", old, path)
	}
	edited := filepath.Join(t.TempDir(), "edited.json")
	writeFile(t, edited, reseal(t, strings.Replace(string(data), old, repl, 1)))
	return edited
}

// reseal sets the checksum of a receipt's text to what
// docs/cli.md#receipt-checksums-and-signatures says it is, as anyone can;
// the signature, which needs the user's key, is left.
func reseal(t *testing.T, text string) string {
	t.Helper()
	var unsealed []string
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); !strings.HasPrefix(t, `"checksum":`) && !strings.HasPrefix(t, `"signature":`) {
			unsealed = append(unsealed, l)
		}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(strings.Join(unsealed, "\n"))); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(compact.Bytes())
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), `"checksum":`) {
			l = `  "checksum": "sha256:` + hex.EncodeToString(sum[:]) + `",`
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestUndoSendsNoCredentialsToAPlantedReceiptsBrokers(t *testing.T) {
	for _, mech := range []string{config.MechanismPlain, config.MechanismScramSHA256} {
		t.Run(mech, func(t *testing.T) {
			isolateConfig(t)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser(mech, plantedUser, plantedPass))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.Close)
			addrs := c.ListenAddrs()
			var auth kgo.Opt
			if mech == config.MechanismPlain {
				auth = kgo.SASL(plain.Auth{User: plantedUser, Pass: plantedPass}.AsMechanism())
			} else {
				auth = kgo.SASL(scram.Auth{User: plantedUser, Pass: plantedPass}.AsSha256Mechanism())
			}
			kc, err := kgo.NewClient(kgo.SeedBrokers(addrs...), auth)
			if err != nil {
				t.Fatal(err)
			}
			defer kc.Close()
			adm := kadm.NewClient(kc)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := adm.CreateTopic(ctx, 1, 1, nil, "orders"); err != nil {
				t.Fatal(err)
			}
			if err := kc.ProduceSync(ctx, &kgo.Record{Topic: "orders", Value: []byte("a")}, &kgo.Record{Topic: "orders", Value: []byte("b")}).FirstErr(); err != nil {
				t.Fatal(err)
			}
			var offs kadm.Offsets
			offs.AddOffset("orders", 0, 2, -1)
			if resp, err := adm.CommitOffsets(ctx, "g", offs); err != nil || resp.Error() != nil {
				t.Fatalf("commit: %v %v", err, resp.Error())
			}
			t.Setenv("KGROUPS_SASL_MECHANISM", mech)
			t.Setenv("KGROUPS_SASL_USERNAME", plantedUser)
			t.Setenv("KGROUPS_SASL_PASSWORD", plantedPass)

			code, _, stderr := runKgroups(t, "-b", strings.Join(addrs, ","), "reset", "g", "--to-earliest", "--topic", "orders", "--execute")
			if code != 0 {
				t.Fatalf("reset: exit %d: %s", code, stderr)
			}
			relay := startRecordingRelay(t, addrs[0])
			planted := plantReceipt(t, receiptPath(t, stderr), []string{relay.addr})

			leaked := func(when string) {
				t.Helper()
				_, data := relay.received()
				for _, secret := range []string{plantedPass, plantedUser} {
					if bytes.Contains(data, []byte(secret)) {
						t.Fatalf("%s: the planted receipt's listener received %q (%d bytes in all)", when, secret, len(data))
					}
				}
			}

			// No cluster named: undo names the receipt's brokers and
			// connects nowhere, dry run or not.
			for _, args := range [][]string{{"undo", planted}, {"undo", planted, "--execute"}, {"undo", planted, "--execute", "--force", "--confirm", "g"}} {
				code, stdout, stderr := runKgroups(t, args...)
				if code != 2 || stdout != "" || !strings.Contains(stderr, "kgroups: no -b/--brokers or context given: undo connects only to a cluster you name, and sends credentials nowhere a file alone names. Receipt "+planted+" records the brokers "+relay.addr+":") {
					t.Fatalf("%v: exit %d\nstdout %s\nstderr %s", args, code, stdout, stderr)
				}
				if n, data := relay.received(); n != 0 || len(data) != 0 {
					t.Fatalf("%v: %d connections, %d bytes reached the planted listener", args, n, len(data))
				}
			}

			// --receipt-brokers connects there without credentials: the
			// SASL-only cluster behind it refuses to answer, and kgroups
			// says why instead of retrying with the password.
			for _, args := range [][]string{{"undo", planted, "--receipt-brokers", "--timeout", "3s"}, {"undo", planted, "--receipt-brokers", "--timeout", "3s", "--execute", "--force", "--confirm", "g"}} {
				code, stdout, stderr := runKgroups(t, args...)
				leaked(strings.Join(args, " "))
				if code != 1 || stdout != "" ||
					!strings.Contains(stderr, "kgroups: connecting to the brokers recorded in the receipt, without credentials: "+relay.addr+"\n") ||
					!strings.HasSuffix(stderr, ". kgroups sends no credentials to the brokers a receipt names: to connect with yours, name the cluster with -b or --context\n") {
					t.Fatalf("%v: exit %d\nstdout %s\nstderr %s", args, code, stdout, stderr)
				}
				if n, _ := relay.received(); n == 0 {
					t.Fatalf("%v: nothing reached the receipt's brokers", args)
				}
			}

			// Naming the real cluster: the planted listener hears nothing;
			// the receipt is shown as not signed, and --execute is refused
			// without --force and --confirm.
			before, _ := relay.received()
			code, _, stderr = runKgroups(t, "-b", strings.Join(addrs, ","), "undo", planted)
			if code != 0 || !strings.Contains(stderr, "Warning: receipt "+planted+": its signature is not your kgroups' (it was changed after it was written, or written with another key)\n") {
				t.Fatalf("dry run on the named cluster: exit %d: %s", code, stderr)
			}
			code, _, stderr = runKgroups(t, "-b", strings.Join(addrs, ","), "undo", planted, "--execute")
			want := "kgroups: receipt " + planted + " is not signed by your kgroups: its signature is not your kgroups' (it was changed after it was written, or written with another key). Nothing was changed; check the group and offsets it records, then add --force and --confirm g to apply it\n"
			if code != 2 || !strings.Contains(stderr, want) {
				t.Fatalf("--execute of the planted receipt: exit %d\n%s\nwant %s", code, stderr, want)
			}
			if after, _ := relay.received(); after != before {
				t.Fatalf("naming the real cluster, %d connections reached the planted listener", after-before)
			}
			leaked("the whole run")
		})
	}
}
