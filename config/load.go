package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Load reads the configuration file at path. A missing file gives an empty
// configuration when mustExist is false (the default path, which need not
// exist) and an error when it is true (a path the user named). Every error
// names the file, and where it can the key and line.
func Load(path string, mustExist bool) (*Config, error) {
	return LoadContext(context.Background(), path, mustExist)
}

// LoadContext is Load that stops reading when ctx is done, so that a path
// that never answers (a FIFO) does not outlast Ctrl+C.
func LoadContext(ctx context.Context, path string, mustExist bool) (*Config, error) {
	data, err := readConfigFile(ctx, path)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return nil, err
		}
		if errors.Is(err, fs.ErrNotExist) && !mustExist {
			return &Config{Path: path}, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("config %s: file does not exist", path)
		}
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	cfg, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	cfg.Path, cfg.Found = path, true
	cfg.Warnings = permissionWarnings(path, cfg)
	if cfg.hasCommand() {
		if problem := commandFileProblem(path); problem != "" {
			for i := range cfg.Contexts {
				if cfg.Contexts[i].SASL.PasswordCmd != "" {
					cfg.Contexts[i].SASL.unsafeCmd = problem
				}
			}
		}
	}
	return cfg, nil
}

// readConfigFile reads the file at path, refusing one over MaxConfigBytes.
func readConfigFile(ctx context.Context, path string) ([]byte, error) {
	return ReadFileBounded(ctx, path, MaxConfigBytes, "configuration file",
		"is this the right file? A configuration holds contexts, not data")
}

// Parse decodes a configuration file's contents; name is used in errors.
// Unknown keys are errors, so a typo such as "pasword" is caught rather than
// silently ignored.
func Parse(data []byte, name string) (*Config, error) {
	p := parser{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config %s: invalid YAML: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	cfg := &Config{}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return cfg, nil // empty file or only comments
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errAt(root, "", "the top level must be a mapping with current-context and contexts")
	}
	err := p.mapping(root, "", []string{"current-context", "contexts"}, func(key string, v *yaml.Node) error {
		switch key {
		case "current-context":
			s, err := p.str(v, key)
			cfg.CurrentContext = s
			return err
		case "contexts":
			if v.Kind != yaml.SequenceNode {
				return p.errAt(v, key, "must be a list of contexts, each with a name")
			}
			seen := map[string]int{}
			for i, item := range v.Content {
				c, err := p.context(item, i)
				if err != nil {
					return err
				}
				if first, dup := seen[c.Name]; dup {
					return p.errAt(item, fmt.Sprintf("contexts[%d].name", i), fmt.Sprintf("duplicate context name %q (also contexts[%d])", c.Name, first))
				}
				seen[c.Name] = i
				cfg.Contexts = append(cfg.Contexts, c)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

type parser struct{ file string }

// errAt reports a problem with the value at node n, named key.
func (p parser) errAt(n *yaml.Node, key, msg string) error {
	if key == "" {
		return fmt.Errorf("config %s: line %d: %s", p.file, n.Line, msg)
	}
	return fmt.Errorf("config %s: line %d: %s: %s", p.file, n.Line, key, msg)
}

// mapping walks a mapping node, rejecting unknown and repeated keys.
func (p parser) mapping(n *yaml.Node, prefix string, known []string, fn func(key string, v *yaml.Node) error) error {
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		return p.errAt(n, strings.TrimSuffix(prefix, "."), "must be a mapping of "+strings.Join(known, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		key := k.Value
		if k.Kind != yaml.ScalarNode {
			return p.errAt(k, strings.TrimSuffix(prefix, "."), "keys must be plain names")
		}
		if !contains(known, key) {
			return p.errAt(k, prefix+key, fmt.Sprintf("unknown key (known: %s)", strings.Join(known, ", ")))
		}
		if seen[key] {
			return p.errAt(k, prefix+key, "set more than once")
		}
		seen[key] = true
		if err := fn(key, v); err != nil {
			return err
		}
	}
	return nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// sectionKeys lists the keys of a context's mapping (section "") or of one
// of its sections ("tls", "sasl"), in Settings order; a context's own keys
// start with its name and name each section once.
func sectionKeys(section string) []string {
	var keys []string
	if section == "" {
		keys = append(keys, "name")
	}
	for i := range Settings {
		s := &Settings[i]
		if s.field == nil {
			continue
		}
		k := s.name()
		if sec := s.Section(); sec != section {
			if section != "" || slices.Contains(keys, sec) {
				continue
			}
			k = sec
		}
		keys = append(keys, k)
	}
	return keys
}

func (p parser) context(n *yaml.Node, idx int) (Cluster, error) {
	n = resolveAlias(n)
	var c Cluster
	if n.Kind != yaml.MappingNode {
		return c, p.errAt(n, fmt.Sprintf("contexts[%d]", idx), "must be a mapping with name, brokers, ...")
	}
	// The name comes first so that every other error can say which
	// context it is about.
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" {
			name, err := p.str(resolveAlias(n.Content[i+1]), fmt.Sprintf("contexts[%d].name", idx))
			if err != nil {
				return c, err
			}
			c.Name = strings.TrimSpace(name)
		}
	}
	if c.Name == "" {
		return c, p.errAt(n, fmt.Sprintf("contexts[%d].name", idx), "missing: every context needs a name")
	}
	base := fmt.Sprintf("contexts[%s].", c.Name)
	err := p.mapping(n, base, sectionKeys(""), func(key string, v *yaml.Node) error {
		if key == "name" {
			return nil
		}
		if s, ok := Lookup(key); ok {
			return p.setting(&c, base, s, v)
		}
		// A section: its keys are settings too.
		return p.mapping(v, base+key+".", sectionKeys(key), func(k string, v *yaml.Node) error {
			s, _ := Lookup(key + "." + k)
			return p.setting(&c, base, s, v)
		})
	})
	return c, err
}

// setting parses one setting's value from the file into c.
func (p parser) setting(c *Cluster, base string, s *Setting, v *yaml.Node) error {
	full := base + s.Key
	// An older name and the new one set one value: once per context.
	key := s.canonical().Key
	if prev, ok := c.origin[key]; ok {
		return p.errAt(v, full, fmt.Sprintf("set twice: also as %s (%s is the older name of %s; keep %s)",
			strings.TrimPrefix(prev.Name, fmt.Sprintf("config %s: ", p.file)), aliasName(s, key), key, key))
	}
	c.setOrigin(key, Source{Kind: SourceFile, Name: fmt.Sprintf("config %s: %s", p.file, full)})
	var err error
	switch f := s.field(c).(type) {
	case *string:
		*f, err = p.str(v, full)
	case *[]string:
		if s.Kind == KindPatterns {
			*f, err = p.patterns(v, full)
			break
		}
		*f, err = p.list(v, full)
	case *bool:
		*f, err = p.boolean(v, full)
	case *time.Duration:
		*f, err = p.duration(v, full)
	}
	return err
}

// str accepts any scalar as a string (a client id of 42 is fine). Its error
// never quotes the value, so it is safe for secrets.
func (p parser) str(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.errAt(n, key, "must be a single value, not a list or mapping")
	}
	if n.Tag == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

// list accepts a YAML list or one comma-separated string.
func (p parser) list(n *yaml.Node, key string) ([]string, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil
		}
		return splitList(n.Value), nil
	case yaml.SequenceNode:
		var out []string
		for i, item := range n.Content {
			item = resolveAlias(item)
			if item.Kind != yaml.ScalarNode {
				return nil, p.errAt(item, fmt.Sprintf("%s[%d]", key, i), "must be a host:port string")
			}
			out = append(out, strings.TrimSpace(item.Value))
		}
		return out, nil
	}
	return nil, p.errAt(n, key, "must be a list of host:port, or one comma-separated string")
}

// aliasName is the older name among s and the setting key it sets.
func aliasName(s *Setting, key string) string {
	if s.AliasOf != "" {
		return s.Key
	}
	for i := range Settings {
		if Settings[i].AliasOf == key {
			return Settings[i].Key
		}
	}
	return s.Key
}

// patterns accepts a YAML list of regular expressions, each item whole,
// or one string split as a flag's value is (splitPatterns).
func (p parser) patterns(n *yaml.Node, key string) ([]string, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil
		}
		ps, err := splitPatterns(n.Value)
		if err != nil {
			return nil, p.errAt(n, key, err.Error())
		}
		return ps, nil
	case yaml.SequenceNode:
		var out []string
		for i, item := range n.Content {
			item = resolveAlias(item)
			if item.Kind != yaml.ScalarNode {
				return nil, p.errAt(item, fmt.Sprintf("%s[%d]", key, i), "must be a regular expression as a string")
			}
			if v := strings.TrimSpace(item.Value); v != "" {
				out = append(out, v)
			}
		}
		return out, nil
	}
	return nil, p.errAt(n, key, "must be a list of regular expressions, or one string of them separated by commas")
}

func (p parser) boolean(n *yaml.Node, key string) (bool, error) {
	if n.Kind == yaml.ScalarNode {
		if b, err := strconv.ParseBool(n.Value); err == nil {
			return b, nil
		}
	}
	return false, p.errAt(n, key, fmt.Sprintf("want true or false, got %s", describe(n)))
}

func (p parser) duration(n *yaml.Node, key string) (time.Duration, error) {
	if n.Kind == yaml.ScalarNode {
		d, err := parseDuration(n.Value)
		if err == nil {
			return d, nil
		}
		return 0, p.errAt(n, key, err.Error())
	}
	return 0, p.errAt(n, key, fmt.Sprintf("want a duration like 500ms, 10s or 1m, got %s", describe(n)))
}

// parseDuration accepts positive Go durations. A bare number is refused:
// "10" could mean seconds or milliseconds, and guessing wrong is worse than
// asking.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration like 500ms, 10s or 1m, got %q", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("must be positive, got %q", s)
	}
	return d, nil
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return strconv.Quote(n.Value)
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// knownList renders names for "(known: ...)" messages.
func knownList(names []string) string {
	if len(names) == 0 {
		return "no contexts are defined"
	}
	s := append([]string(nil), names...)
	sort.Strings(s)
	return "known: " + strings.Join(s, ", ")
}
