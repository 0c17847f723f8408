package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// demoOutput is a writer that the command writes to while the test reads it.
type demoOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *demoOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *demoOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// startDemo runs args in the background and returns once the bootstrap line
// is printed, with the brokers it names and a channel for the exit code.
func startDemo(t *testing.T, ctx context.Context, args ...string) (brokers []string, stdout, stderr *demoOutput, code <-chan int) {
	t.Helper()
	stdout, stderr = new(demoOutput), new(demoOutput)
	done := make(chan int, 1)
	go func(out, errOut *demoOutput) { done <- run(ctx, args, strings.NewReader(""), out, errOut) }(stdout, stderr)
	deadline := time.After(60 * time.Second)
	exited := false
	for {
		if first, _, ok := strings.Cut(stdout.String(), "\n"); ok {
			addrs, found := strings.CutPrefix(first, "bootstrap: ")
			if !found {
				t.Fatalf("first line %q does not start with %q", first, "bootstrap: ")
			}
			brokers = strings.Split(addrs, ",")
			if len(brokers) != 3 {
				t.Fatalf("bootstrap line %q names %d brokers, want 3", first, len(brokers))
			}
			for _, b := range brokers {
				if !strings.HasPrefix(b, "127.0.0.1:") {
					t.Fatalf("bootstrap line %q: broker %q is not on 127.0.0.1", first, b)
				}
			}
			return brokers, stdout, stderr, done
		}
		if exited {
			c := <-done
			t.Fatalf("demo exited with %d without printing the bootstrap line; stderr: %s", c, stderr)
		}
		select {
		case c := <-done:
			// It may have printed the line and then finished: look once more.
			done <- c
			exited = true
		case <-deadline:
			t.Fatalf("no bootstrap line within 60s; stdout: %q, stderr: %q", stdout, stderr)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func waitExit(t *testing.T, code <-chan int, stderr *demoOutput) int {
	t.Helper()
	select {
	case c := <-code:
		return c
	case <-time.After(60 * time.Second):
		t.Fatalf("demo did not stop within 60s of cancellation; stderr: %s", stderr)
		return -1
	}
}

func TestDemoHeadless(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	brokers, stdout, stderr, code := startDemo(t, ctx, "demo", "--headless")

	if want := "kgroups -b " + strings.Join(brokers, ",") + "\n"; !strings.Contains(stdout.String(), want) {
		t.Errorf("hint does not show %q:\n%s", want, stdout)
	}

	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	want := []string{
		"analytics-slow", "audit-nocommit", "billing-archive", "clicks-cooperative", "clicks-sticky",
		"inventory-static", "jobs-share", "orders-range", "orders-roundrobin", "payments-848", "search-churn",
	}
	var got []string
	end := time.Now().Add(40 * time.Second)
	for {
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		listed, err := adm.ListGroups(rctx)
		rcancel()
		got = listed.Groups()
		slices.Sort(got)
		if err == nil && slices.Equal(got, want) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("groups = %v (err %v), want %v", got, err, want)
		}
		time.Sleep(250 * time.Millisecond)
	}
	cl.Close()

	cancel()
	if c := waitExit(t, code, stderr); c != exitOK {
		t.Fatalf("exit code %d after cancellation, want 0; stderr: %s", c, stderr)
	}
	if s := stderr.String(); s != "" {
		t.Errorf("stderr not empty: %s", s)
	}
}

func TestDemoBadListen(t *testing.T) {
	for _, tc := range []struct {
		listen, msg string
	}{
		{"0.0.0.0:9092", `host "0.0.0.0" is not a loopback address`},
		{"127.0.0.1:65534", `port "65534" must be a number from 1 to 65533`},
		{"9092", "want HOST:PORT"},
	} {
		t.Run(tc.listen, func(t *testing.T) {
			var stdout, stderr demoOutput
			c := run(context.Background(), []string{"demo", "--headless", "--listen", tc.listen}, strings.NewReader(""), &stdout, &stderr)
			if c != exitUsage {
				t.Fatalf("exit code %d, want %d; stderr: %s", c, exitUsage, &stderr)
			}
			if !strings.Contains(stderr.String(), "--listen") || !strings.Contains(stderr.String(), tc.msg) {
				t.Fatalf("stderr %q does not name --listen and %q", &stderr, tc.msg)
			}
			if stdout.String() != "" {
				t.Fatalf("stdout not empty: %q", &stdout)
			}
		})
	}
}

func TestDemoOpensUIUnlessHeadless(t *testing.T) {
	saved := demoUI
	defer func() { demoUI = saved }()

	var calls [][]string
	demoUI = func(_ context.Context, a *app, brokers []string) error {
		calls = append(calls, brokers)
		if a.stdout == nil {
			return fmt.Errorf("app without stdout")
		}
		return nil
	}

	// With the hook set, demo runs it and ends when it returns, saying
	// what the bootstrap line left on the screen was.
	brokers, stdout, stderr, code := startDemo(t, context.Background(), "demo")
	if c := waitExit(t, code, stderr); c != exitOK {
		t.Fatalf("exit code %d, want 0; stderr: %s", c, stderr)
	}
	if len(calls) != 1 || !slices.Equal(calls[0], brokers) {
		t.Fatalf("UI calls = %v, want one with %v", calls, brokers)
	}
	b := strings.Join(brokers, ",")
	if want := "bootstrap: " + b + "\nkgroups demo: stopped its in-process cluster (bootstrap " + b + " above)\n"; stdout.String() != want {
		t.Fatalf("stdout %q, want %q", stdout.String(), want)
	}

	// --headless never opens it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, _, stderr, code = startDemo(t, ctx, "demo", "--headless")
	cancel()
	if c := waitExit(t, code, stderr); c != exitOK {
		t.Fatalf("headless exit code %d, want 0; stderr: %s", c, stderr)
	}
	if len(calls) != 1 {
		t.Fatalf("UI opened %d times, want once (not with --headless)", len(calls))
	}

	// A failing UI is a failing command.
	demoUI = func(context.Context, *app, []string) error { return fmt.Errorf("terminal too small") }
	_, _, stderr, code = startDemo(t, context.Background(), "demo")
	if c := waitExit(t, code, stderr); c != exitError || !strings.Contains(stderr.String(), "terminal too small") {
		t.Fatalf("exit code %d, stderr %q; want 1 and the UI's error", c, stderr)
	}
}
