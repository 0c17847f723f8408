package debuglog

import (
	"context"
	"encoding"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// Mask replaces a value that holds a secret in the log: the whole value,
// never only the secret inside it.
const Mask = "****"

// Redact registers secrets with l's redactor: from then on, any record's
// message or attribute value containing one of them is replaced, whole, by
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
	out := slog.NewRecord(rec.Time, rec.Level, redactMessage(rec.Message, secrets), rec.PC)
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

// redactAttr masks a's whole value when its key names a secret or its
// text, as the text handler would write it, holds one of secrets: masking
// only the secret inside would give a short one away by elimination
// ("client_id=kgroups-****-1" when the client id is known). Text that
// stays has its invisible characters escaped (clean).
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
	text := valueText(a.Value)
	if holdsSecret(text, secrets) {
		return slog.String(a.Key, Mask)
	}
	if err, ok := a.Value.Any().(error); ok && a.Value.Kind() == slog.KindAny {
		// Some errors print less with %+v than Error() says.
		if holdsSecret(err.Error(), secrets) {
			return slog.String(a.Key, Mask)
		}
	}
	if k := a.Value.Kind(); k == slog.KindString || k == slog.KindAny {
		if c := clean(text); c != text {
			return slog.String(a.Key, c)
		}
	}
	return a
}

// redactMessage is a record's message, Mask as a whole when it holds a
// secret, else with its invisible characters escaped.
func redactMessage(msg string, secrets []string) string {
	if holdsSecret(msg, secrets) {
		return Mask
	}
	return clean(msg)
}

// holdsSecret reports whether s contains one of secrets.
func holdsSecret(s string, secrets []string) bool {
	for _, sec := range secrets {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// clean escapes the characters a reader of the log would not see, or
// would see in the wrong place: those the text handler leaves as they are
// although they draw nothing (every Default_Ignorable_Code_Point, such as
// the combining grapheme joiner U+034F and the Hangul fillers U+115F,
// U+1160, U+3164 and U+FFA0; variation selectors), format characters and
// bidirectional controls, and controls. Each becomes \uXXXX, so that
// "ev\u034fil" cannot pass for "evil" in a trace sent with a bug report.
// Text with none of them is returned as it is.
func clean(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	dirty := false
	for _, r := range s[i:] {
		if hidden(r) {
			dirty = true
			break
		}
	}
	if !dirty {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if hidden(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hidden reports a character that clean escapes.
func hidden(r rune) bool {
	switch {
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return true
	case r < 0x80:
		return false
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)
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
