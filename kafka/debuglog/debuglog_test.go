package debuglog

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

const secret = "Hunter2-s3cret"

func TestRedactsSecretsWherever(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	// Derived before the secret is known: its attributes are still
	// redacted once it is.
	early := l.With("cmd", "echo "+secret).WithGroup("g")
	Redact(l, secret, "")

	l.Debug("message holds "+secret, "plain", "ok")
	l.Debug("attrs",
		"str", "x"+secret+"y",
		"err", fmt.Errorf("wrapped: %w", errors.New("bad "+secret)),
		"bytes", []byte(secret),
		"stringer", stringer{secret},
		slog.Group("grp", "inner", secret),
		"password", "not-registered-but-named",
		"sasl_token", "named-too",
		"key", "tls key bytes",
	)
	early.Debug("early", "v", secret)
	l.With("late", secret).Info("late")

	out := buf.String()
	if strings.Contains(out, secret) {
		t.Fatalf("secret in the log:\n%s", out)
	}
	for _, s := range []string{"not-registered-but-named", "named-too", "tls key bytes"} {
		if strings.Contains(out, s) {
			t.Errorf("value of a secret-named key %q in the log:\n%s", s, out)
		}
	}
	for _, want := range []string{
		`msg=**** plain=ok`,
		`str=****`,
		`err=****`,
		`bytes=****`,
		`stringer=****`,
		`grp.inner=****`,
		`password=****`,
		`sasl_token=****`,
		`key=****`,
		`cmd=**** g.v=****`,
		`late=****`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 4 {
		t.Errorf("%d lines, want one a record (4):\n%s", n, out)
	}
}

type stringer struct{ s string }

func (s stringer) String() string { return "<" + s.s + ">" }

func TestLineFormat(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	l.Debug("poll", "groups", 3)
	line := buf.String()
	re := regexp.MustCompile(`^time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d) level=DEBUG msg=poll groups=3\n$`)
	if !re.MatchString(line) {
		t.Fatalf("line %q does not match %s", line, re)
	}
}

func TestKgoAdapter(t *testing.T) {
	if Kgo(nil) != nil || Kgo(Discard) != nil {
		t.Fatal("a logger that writes nothing must give kgo no logger")
	}
	var buf bytes.Buffer
	l := New(&buf)
	Redact(l, secret)
	k := Kgo(l)
	if k.Level() != kgo.LogLevelDebug {
		t.Fatalf("level %v, want debug", k.Level())
	}
	k.Log(kgo.LogLevelDebug, "opening connection to broker", "addr", "127.0.0.1:9092", "broker", "seed_0")
	k.Log(kgo.LogLevelWarn, "read failed", "err", errors.New("auth with "+secret))
	k.Log(kgo.LogLevelError, "boom")
	k.Log(kgo.LogLevelInfo, "info")
	out := buf.String()
	for _, want := range []string{
		`level=DEBUG msg="opening connection to broker" src=kgo addr=127.0.0.1:9092 broker=seed_0`,
		`level=WARN msg="read failed" src=kgo err=****`,
		`level=ERROR msg=boom src=kgo`,
		`level=INFO msg=info src=kgo`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestDiscardWritesNothing(t *testing.T) {
	if On(nil) || On(Discard) || Or(nil) != Discard {
		t.Fatal("Discard must be off")
	}
	Redact(Discard, secret) // no redactor: ignored
	Redact(nil, secret)
	if !On(New(&bytes.Buffer{})) {
		t.Fatal("New must be on")
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "debug.log")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintln(f, "one"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	// Appends, and makes a file others can read private.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintln(f, "two"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\ntwo\n" {
		t.Fatalf("content %q", b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after reopening, want 0600", st.Mode().Perm())
	}

	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	missing := filepath.Join(dir, "no", "such", "debug.log")
	if _, err := Open(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing directory: %v", err)
	}
}

// TestMaskHidesShortSecretsWhole: a value that holds a secret is masked
// whole, so that a short password cannot be read off what is left around
// it ("kgroups-****-1" for a client id the reader knows).
func TestMaskHidesShortSecretsWhole(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	Redact(l, "prod")
	l.Debug("connect", "client_id", "kgroups-prod-1", "broker", "kafka-1:9092")
	l.Debug("dialing kafka-prod-1:9092")
	want := `level=DEBUG msg=connect client_id=**** broker=kafka-1:9092` + "\n" + `level=DEBUG msg=****` + "\n"
	if got := stripTime(buf.String()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTraceEscapesInvisibleCharacters: characters that draw nothing
// (U+034F, the Hangul filler U+3164, a zero-width space, a bidi override)
// reach the trace as \u escapes, in messages and values alike, so that a
// group "ev\u034fil" cannot pass for "evil" there.
func TestTraceEscapesInvisibleCharacters(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	l.Debug("group ev\u034fil", "group", "ev\u034fil", "member", "\u3164", "host", "a\u200bb\u202ec", "err", errors.New("bad \uffa0 name"), "plain", "日本 ok")
	want := `level=DEBUG msg="group ev\\u034fil" group=ev\u034fil member=\u3164 host=a\u200bb\u202ec err="bad \\uffa0 name" plain="日本 ok"` + "\n"
	if got := stripTime(buf.String()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// stripTime drops the time= field of each line.
func stripTime(s string) string {
	var out []string
	for _, line := range strings.SplitAfter(s, "\n") {
		if i := strings.Index(line, " "); strings.HasPrefix(line, "time=") && i > 0 {
			line = line[i+1:]
		}
		out = append(out, line)
	}
	return strings.Join(out, "")
}
