package tui

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kgroups/kgroups/kafka"
)

// hostAddr is a broker address as kgo dials it, host name and all.
type hostAddr string

func (a hostAddr) Network() string { return "tcp" }
func (a hostAddr) String() string  { return string(a) }

// errKgoRefused is a poll failure as kgo words it when the broker's port
// is closed: the request, the shard, then the dial error.
var errKgoRefused = fmt.Errorf("list groups: request ListGroups has 1 separate shard errors, first: unable to dial: %w",
	&net.OpError{Op: "dial", Net: "tcp", Addr: hostAddr("kafka-1.internal:9092"),
		Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}})

// TestStaleErrorAt120: a refused poll says which broker refused it, short
// enough that the whole status line reads at 120 columns, under the
// broker list.
func TestStaleErrorAt120(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, fixture, failing(errKgoRefused))
	h.poll()
	h.clock.Advance(5 * time.Second)
	h.poll()
	l := lines(h.view())
	if want := "kgroups · ctx prod · 0 OK 0 WARN 0 ERR · brokers kafka-1.internal:9092,kafka-2.internal:9092"; !strings.HasPrefix(l[0], "kgroups · ctx prod · ") || !strings.HasSuffix(l[0], "· brokers kafka-1.internal:9092,kafka-2.internal:9092") {
		t.Errorf("line 1 = %q, want the broker list whole, like %q", l[0], want)
	}
	if got, want := l[1], "✖ stale · last refresh 5s ago · retry 09:27:03 (in 5s) · connection refused by kafka-1.internal:9092"; got != want {
		t.Errorf("line 2 =\n%q\nwant\n%q", got, want)
	}
}

// TestUnreachableThenUp: the UI starts with no snapshot; the first polls
// fail (the error shown, retried with the backoff), and the screen fills
// once the cluster answers.
func TestUnreachableThenUp(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, failing(errKgoRefused), failing(errKgoRefused), fixture) //nolint:gocritic // dupOption: two failed polls in a row, not options
	h.poll()
	status := func() string { return lines(h.view())[1] }
	if got, want := status(), "✖ unreachable · retry 09:26:58 (in 5s) · connection refused by kafka-1.internal:9092"; got != want {
		t.Fatalf("after the first failure: %q, want %q", got, want)
	}
	if n := len(tableNames(h.view())); n != 0 {
		t.Fatalf("%d rows before any snapshot", n)
	}
	h.clock.Advance(5 * time.Second)
	h.poll()
	if got, want := status(), "✖ unreachable · retry 09:27:08 (in 10s) · connection refused by kafka-1.internal:9092"; got != want {
		t.Fatalf("after the second failure: %q, want %q", got, want)
	}
	if last := h.timers[len(h.timers)-1]; last.d != 10*time.Second {
		t.Fatalf("second retry after %v, want the backoff's 10s", last.d)
	}
	h.clock.Advance(10 * time.Second)
	h.poll()
	if got := status(); got != "● connected · 3 brokers · refreshed 0s ago in 42ms · every 5s" {
		t.Fatalf("once up: %q", got)
	}
	if n := len(tableNames(h.view())); n != 8 {
		t.Fatalf("%d rows once up, want 8", n)
	}
}

// TestOverdueIsAmber: the connection status turns amber once the scheduled
// poll is overdueGrace late with no result, and green again when the
// result comes.
func TestOverdueIsAmber(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	c := newClock()
	p := &seqPoller{clock: c, steps: []func(time.Time) (*kafka.Snapshot, error){fixture}}
	m := newModel(context.Background(), Options{Poller: p, Now: c.Now, Getenv: func(string) string { return "" }}.withDefaults(), r, true)
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	_, cmd := m.Update(m.startPoll()())
	settle(m, cmd) // the judging job
	label := m.base.Glyphs.OK + " connected"
	green, amber := m.styles.OK.Render(label), m.styles.Warn.Render(label)
	if green == amber {
		t.Fatal("the test cannot tell green from amber")
	}
	is := func(when, want string) {
		t.Helper()
		v := m.View()
		if !strings.Contains(v, want) {
			t.Fatalf("%s: the status is not %q:\n%q", when, want, lines(v)[1])
		}
	}
	is("just polled", green)
	c.Advance(5 * time.Second)
	m.Update(clockMsg{})
	is("at the scheduled time", green)
	poll := m.startPoll() // the scheduled poll, in flight
	c.Advance(overdueGrace)
	m.Update(clockMsg{})
	is("the poll in flight, within the grace", green)
	c.Advance(time.Second - overdueGrace)
	m.Update(clockMsg{})
	is("a second past the scheduled time, no result", amber)
	m.Update(poll())
	is("the result came", green)

	// A schedule that never fired (a suspended laptop) is overdue too,
	// unless paused.
	c.Advance(6 * time.Second)
	m.Update(clockMsg{})
	is("a timer that never fired", amber)
	m.Update(keyMsg("p"))
	is("paused", green)
}

// TestGoldenConnection: the groups screen before the first snapshot
// (unreachable at launch) and with stale data, at both sizes.
func TestGoldenConnection(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, sc := range []struct {
			name  string
			steps []func(time.Time) (*kafka.Snapshot, error)
		}{
			{"unreachable", []func(time.Time) (*kafka.Snapshot, error){failing(errKgoRefused)}},
			{"stale", []func(time.Time) (*kafka.Snapshot, error){fixture, failing(errKgoRefused)}},
		} {
			name := sc.name + "_" + itoa(size[0]) + "x" + itoa(size[1])
			t.Run(name, func(t *testing.T) {
				h := newHarness(t, size[0], size[1], Options{}, sc.steps...)
				for range sc.steps {
					h.poll()
					h.clock.Advance(5 * time.Second)
				}
				h.clock.Advance(-3 * time.Second)
				h.send(clockMsg{})
				golden.RequireEqual(t, []byte(h.view()))
			})
		}
	}
}

// dialTimeoutError is a dial that timed out, as the net package reports it.
type dialTimeoutError struct{}

func (dialTimeoutError) Error() string   { return "i/o timeout" }
func (dialTimeoutError) Timeout() bool   { return true }
func (dialTimeoutError) Temporary() bool { return true }

// TestUnreachableCauseAt120: whatever failed first (a DNS lookup, a dial
// that timed out), the status line at 120 columns names the cause and the
// host whole, before anything is cut.
func TestUnreachableCauseAt120(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"dns", fmt.Errorf("list groups: request ListGroups has 1 separate shard errors, first: unable to dial: %w",
			&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "no-such-host.invalid", IsNotFound: true}}),
			"✖ unreachable · retry 09:26:58 (in 5s) · DNS lookup of no-such-host.invalid failed: no such host"},
		{"timeout", fmt.Errorf("describe groups: request DescribeGroups has 1 separate shard errors, first: unable to dial: %w",
			&net.OpError{Op: "dial", Net: "tcp", Addr: hostAddr("kafka-3.internal:9092"), Err: dialTimeoutError{}}),
			"✖ unreachable · retry 09:26:58 (in 5s) · no answer from kafka-3.internal:9092 (connection timed out)"},
		{"sasl", fmt.Errorf("list groups: request ListGroups has 1 separate shard errors, first: %w", kerr.SaslAuthenticationFailed),
			"✖ unreachable · retry 09:26:58 (in 5s) · SASL authentication failed: check the credentials (list groups: request ListGr…"},
		{"tls", fmt.Errorf("list groups: unable to dial: %w", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}),
			"✖ unreachable · retry 09:26:58 (in 5s) · TLS handshake failed: certificate signed by unknown authority (set tls.ca_file)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 120, 40, Options{}, failing(tc.err))
			h.poll()
			if got := lines(h.view())[1]; got != tc.want {
				t.Errorf("status at 120 columns =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
