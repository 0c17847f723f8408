package config

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// Mask replaces a secret for display.
const Mask = "****"

// CommandMask replaces a command for display.
const CommandMask = "<set>"

// Masked returns a copy of the context that is safe to print: the secret
// settings (the inline password and token) become "****", and a
// password_cmd, whose text may carry a secret, "<set>". The other
// references (password_env, password_file, token_file) stay, since they say
// where the secret is without being it.
func (c Cluster) Masked() Cluster {
	c = c.clone()
	for i := range Settings {
		s := &Settings[i]
		switch {
		case s.field == nil || s.isZero(&c):
		case s.Secret:
			_ = s.set(&c, Mask)
		case s.Command:
			_ = s.set(&c, CommandMask)
		}
	}
	return c
}

// View renders the configuration as YAML in the file's own format, with
// secrets masked. When effective is non-nil it is the context in use: it
// becomes current-context and replaces the file's context of the same name
// (or is added, for an ad-hoc context), so the output shows what kgroups
// will actually do after flags, environment and defaults. Other contexts
// are shown with defaults filled in.
func (c *Config) View(effective *Cluster) ([]byte, error) {
	current := c.CurrentContext
	var contexts []*yaml.Node
	replaced := false
	for _, x := range c.Contexts {
		if effective != nil && x.Name == effective.Name {
			x, replaced = *effective, true
		} else {
			x = x.withDefaults().normalize()
		}
		contexts = append(contexts, contextNode(x.Masked()))
	}
	if effective != nil {
		current = effective.Name
		if !replaced {
			contexts = append(contexts, contextNode(effective.Masked()))
		}
	}
	doc := mappingNode()
	if current != "" {
		addPair(doc, "current-context", scalarNode(current))
	}
	addPair(doc, "contexts", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: contexts})
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("render config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render config: %w", err)
	}
	return escapeHidden(buf.Bytes()), nil
}

// contextNode renders one context in Settings order. A key of the context
// is always shown, so that the view says what every setting is; a section
// (tls, sasl) only when one of its settings is set, and then its first
// setting always and the others when set.
func contextNode(c Cluster) *yaml.Node {
	ctx := mappingNode()
	addPair(ctx, "name", scalarNode(c.Name))
	sections := map[string]*yaml.Node{}
	for i := range Settings {
		s := &Settings[i]
		if s.field == nil || s.AliasOf != "" {
			continue // an older name shows under the new one
		}
		sec := s.Section()
		if sec == "" {
			addPair(ctx, s.Key, valueNode(s.text(&c)))
			continue
		}
		m, started := sections[sec]
		if !started {
			if !sectionSet(&c, sec) {
				sections[sec] = nil
				continue
			}
			m = mappingNode()
			sections[sec] = m
			addPair(ctx, sec, m)
		} else if m == nil {
			continue
		}
		if len(m.Content) == 0 || !s.isZero(&c) {
			addPair(m, s.name(), valueNode(s.text(&c)))
		}
	}
	return ctx
}

// sectionSet reports whether any setting of the section has a value.
func sectionSet(c *Cluster, section string) bool {
	for i := range Settings {
		if s := &Settings[i]; s.field != nil && s.AliasOf == "" && s.Section() == section && !s.isZero(c) {
			return true
		}
	}
	return false
}

func mappingNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func scalarNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.IndexFunc(s, hiddenRune) >= 0 {
		// escapeHidden writes its hidden characters as escapes, which
		// only a double-quoted scalar reads back as they were.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// hiddenRune reports a character a terminal would act on or not draw:
// controls, bidirectional controls, line separators, format characters
// and every other default-ignorable code point (U+034F, U+3164, ...).
// `config view` writes them as escapes, so that a context named
// "prod\u202e" cannot pass for another on screen.
func hiddenRune(r rune) bool {
	switch {
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return true
	case r < 0x80:
		return false
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r)
}

// escapeHidden writes every hidden character of YAML text as a \u (or
// \U) escape. Only double-quoted scalars hold them (scalarNode), where
// the escape means the character itself.
func escapeHidden(text []byte) []byte {
	if bytes.IndexFunc(text, hiddenRune) < 0 {
		return text
	}
	var b bytes.Buffer
	for _, r := range string(text) {
		switch {
		case r == '\n':
			b.WriteRune(r) // the document's own line breaks
		case hiddenRune(r) && r > 0xffff:
			fmt.Fprintf(&b, "\\U%08X", r)
		case hiddenRune(r):
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.Bytes()
}

func addPair(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalarNode(key), v)
}

// valueNode encodes a setting's value as the file spells it.
func valueNode(v any) *yaml.Node {
	switch v := v.(type) {
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case []string:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, s := range v {
			seq.Content = append(seq.Content, scalarNode(s))
		}
		return seq
	case string:
		return scalarNode(v)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
}
