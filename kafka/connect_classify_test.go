package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// TestConnectErrorsNameTheirCause: a failed connection says what failed
// first, with the host: a DNS lookup, a timeout.
func TestConnectErrorsNameTheirCause(t *testing.T) {
	t.Run("DNS lookup", func(t *testing.T) {
		_, err := kafka.Connect(context.Background(), config.Cluster{Name: "x", Brokers: []string{"no-such-host.invalid:9092"}, RequestTimeout: 2 * time.Second})
		want := "DNS lookup of no-such-host.invalid failed: no such host (tried no-such-host.invalid:9092): check the brokers setting and the name server"
		if err == nil || err.Error() != want || !errors.Is(err, kafka.ErrUnreachable) {
			t.Fatalf("err = %v, want %q (unreachable)", err, want)
		}
		// A poll that fails the same way, as the status line shows it.
		poll := fmt.Errorf("cannot read cluster metadata within 10s (tried kafka-9.internal:9092): %w",
			&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Name: "kafka-9.internal", Err: "no such host", IsNotFound: true}})
		if got := kafka.Headline(poll); got != "DNS lookup of kafka-9.internal failed: no such host" {
			t.Errorf("headline %q", got)
		}
	})

	t.Run("no answer", func(t *testing.T) {
		addr := blackHole(t)
		_, err := kafka.Connect(context.Background(), config.Cluster{Name: "x", Brokers: []string{addr}, RequestTimeout: 300 * time.Millisecond})
		wantPrefix := "no answer from " + addr + " within 300ms: the brokers may be down, or a firewall may drop the connection: "
		if err == nil || len(err.Error()) < len(wantPrefix) || err.Error()[:len(wantPrefix)] != wantPrefix || !errors.Is(err, kafka.ErrUnreachable) {
			t.Fatalf("err = %v, want it to start %q (unreachable)", err, wantPrefix)
		}
	})

	t.Run("headline of a dial timeout", func(t *testing.T) {
		addr := &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 9092}
		err := fmt.Errorf("cannot read cluster metadata within 10s (tried kafka-1:9092): %w",
			&net.OpError{Op: "dial", Net: "tcp", Addr: addr, Err: os.ErrDeadlineExceeded})
		if got := kafka.Headline(err); got != "no answer from 10.1.2.3:9092 (connection timed out)" {
			t.Errorf("headline %q", got)
		}
	})
}

// blackHole listens, accepts connections and never answers them.
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}
