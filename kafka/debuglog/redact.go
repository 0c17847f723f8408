package debuglog

import (
	"context"
	"encoding"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
)

// Mask replaces a secret in the log.
const Mask = "****"

// Redact registers secrets with l's redactor: from then on, any record's
// message or attribute value containing one of them has it replaced by
// Mask, whatever logged it (kgroups or franz-go). kafka.Connect registers
// each password, token, password command and TLS key it resolves before it
// dials. Empty values are ignored; a logger that is not New's (Discard)
// ignores the call.
func Redact(l *slog.Logger, secrets ...string) {
	if l == nil {
		return
	}
	if r, ok := l.Handler().(*redactor); ok {
		r.s.add(secrets)
	}
}

// secretKeys are parts of attribute keys that name a secret; such an
// attribute's value is masked whatever it holds.
var secretKeys = []string{"password", "passwd", "secret", "token", "credential", "private", "pem"}

// secretKeyWords are whole keys that name a secret.
var secretKeyWords = []string{"pass", "pwd", "key", "auth", "authorization", "sasl_pass"}

func secretKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range secretKeyWords {
		if k == w {
			return true
		}
	}
	for _, s := range secretKeys {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// secretSet is the secrets shared by a redactor and every handler derived
// from it (With, WithGroup). gen changes with every addition, so a derived
// handler knows when the attributes it holds must be redacted again.
type secretSet struct {
	mu   sync.RWMutex
	vals []string
	gen  atomic.Uint64
}

func (s *secretSet) add(vals []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	added := false
	for _, v := range vals {
		if v == "" || contains(s.vals, v) {
			continue
		}
		s.vals = append(s.vals, v)
		added = true
	}
	if added {
		s.gen.Add(1)
	}
}

func contains(vals []string, v string) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

// snapshot is the secrets now and their generation.
func (s *secretSet) snapshot() ([]string, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.vals, s.gen.Load()
}

// redactor is an slog.Handler that masks secrets before its inner handler
// sees a record. Attributes added with WithAttrs are kept unredacted and
// handed to the inner handler, redacted, when a record is written, so that
// a secret registered after a logger was derived is still masked in them.
type redactor struct {
	base slog.Handler // the inner handler with none of goas applied
	s    *secretSet
	goas []groupOrAttrs
	// derived is base with goas applied, redacted with the secrets of
	// its generation.
	derived atomic.Pointer[derivedHandler]
}

type groupOrAttrs struct {
	group string // a WithGroup when attrs is nil
	attrs []slog.Attr
}

type derivedHandler struct {
	gen uint64
	h   slog.Handler
}

func newRedactor(inner slog.Handler) *redactor {
	return &redactor{base: inner, s: &secretSet{}}
}

func (r *redactor) Enabled(ctx context.Context, l slog.Level) bool {
	return r.base.Enabled(ctx, l)
}

func (r *redactor) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return r
	}
	return r.with(groupOrAttrs{attrs: attrs})
}

func (r *redactor) WithGroup(name string) slog.Handler {
	if name == "" {
		return r
	}
	return r.with(groupOrAttrs{group: name})
}

func (r *redactor) with(g groupOrAttrs) *redactor {
	goas := make([]groupOrAttrs, len(r.goas), len(r.goas)+1)
	copy(goas, r.goas)
	return &redactor{base: r.base, s: r.s, goas: append(goas, g)}
}

func (r *redactor) Handle(ctx context.Context, rec slog.Record) error {
	secrets, gen := r.s.snapshot()
	h := r.handler(secrets, gen)
	out := slog.NewRecord(rec.Time, rec.Level, redactText(rec.Message, secrets), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a, secrets))
		return true
	})
	return h.Handle(ctx, out)
}

// handler is base with the attributes of With applied, redacted with the
// secrets of generation gen.
func (r *redactor) handler(secrets []string, gen uint64) slog.Handler {
	if len(r.goas) == 0 {
		return r.base
	}
	if d := r.derived.Load(); d != nil && d.gen == gen {
		return d.h
	}
	h := r.base
	for _, g := range r.goas {
		if g.attrs == nil {
			h = h.WithGroup(g.group)
			continue
		}
		attrs := make([]slog.Attr, len(g.attrs))
		for i, a := range g.attrs {
			attrs[i] = redactAttr(a, secrets)
		}
		h = h.WithAttrs(attrs)
	}
	r.derived.Store(&derivedHandler{gen: gen, h: h})
	return h
}

// redactAttr masks a's value when its key names a secret or its text, as
// the text handler would write it, holds one of secrets.
func redactAttr(a slog.Attr, secrets []string) slog.Attr {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		group := a.Value.Group()
		out := make([]slog.Attr, len(group))
		for i, g := range group {
			out[i] = redactAttr(g, secrets)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	}
	if secretKey(a.Key) {
		return slog.String(a.Key, Mask)
	}
	if len(secrets) == 0 {
		return a
	}
	text := valueText(a.Value)
	if masked := redactText(text, secrets); masked != text {
		return slog.String(a.Key, masked)
	}
	if err, ok := a.Value.Any().(error); ok && a.Value.Kind() == slog.KindAny {
		// Some errors print less with %+v than Error() says.
		if msg := err.Error(); redactText(msg, secrets) != msg {
			return slog.String(a.Key, redactText(msg, secrets))
		}
	}
	return a
}

// valueText is v as the text handler writes it, before quoting.
func valueText(v slog.Value) string {
	if v.Kind() != slog.KindAny {
		return v.String()
	}
	switch x := v.Any().(type) {
	case encoding.TextMarshaler:
		if b, err := x.MarshalText(); err == nil {
			return string(b)
		}
	case []byte:
		return string(x)
	}
	return fmt.Sprintf("%+v", v.Any())
}

// redactText replaces every secret in s by Mask.
func redactText(s string, secrets []string) string {
	for _, sec := range secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Mask)
		}
	}
	return s
}
