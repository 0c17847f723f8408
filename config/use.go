package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// UseContext makes name the current-context of the file at path. Only that
// one line changes, so comments, order and formatting survive; an unknown
// context is an error listing the known ones, and the file is left as it
// was. The file is replaced atomically.
func UseContext(path, name string) error {
	cfg, err := Load(path, true)
	if err != nil {
		return err
	}
	if _, ok := cfg.Context(name); !ok {
		return fmt.Errorf("config %s: unknown context %q (%s)", path, name, knownList(cfg.Names()))
	}
	data, err := readConfigFile(context.Background(), path)
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	out, err := setCurrentContext(data, name)
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	// Check the rewrite before replacing anything.
	check, err := Parse(out, path)
	if err != nil {
		return fmt.Errorf("config %s: rewriting current-context would break the file: %w", path, err)
	}
	if check.CurrentContext != name || len(check.Contexts) != len(cfg.Contexts) {
		return fmt.Errorf("config %s: could not rewrite current-context safely; set it to %q by hand", path, name)
	}
	return writeFileAtomic(path, out)
}

// setCurrentContext returns data with the top-level current-context set to
// name, editing text rather than re-encoding when the file is in block
// style.
func setCurrentContext(data []byte, name string) ([]byte, error) {
	enc, err := yaml.Marshal(name)
	if err != nil {
		return nil, err
	}
	value := strings.TrimSuffix(string(enc), "\n")
	line := "current-context: " + value

	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return append([]byte(line+"\n"), data...), nil
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "current-context" {
			continue
		}
		if root.Style&yaml.FlowStyle == 0 && k.Column == 1 && v.Kind == yaml.ScalarNode && k.Line == v.Line && !strings.Contains(v.Value, "\n") {
			lines := bytes.SplitAfter(data, []byte("\n"))
			old := string(lines[k.Line-1])
			nl := ""
			if strings.HasSuffix(old, "\n") {
				nl = "\n"
				if strings.HasSuffix(old, "\r\n") {
					nl = "\r\n"
				}
			}
			repl := line
			if v.LineComment != "" {
				repl += " " + v.LineComment
			}
			lines[k.Line-1] = []byte(repl + nl)
			return bytes.Join(lines, nil), nil
		}
		// Unusual layout: re-encode the whole document.
		v.Kind, v.Tag, v.Value, v.Style, v.Content = yaml.ScalarNode, "!!str", name, 0, nil
		return encodeNode(&doc)
	}
	if root.Style&yaml.FlowStyle != 0 {
		root.Content = append([]*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "current-context"},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: name},
		}, root.Content...)
		return encodeNode(&doc)
	}
	return append([]byte(line+"\n"), data...), nil
}

func encodeNode(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeFileAtomic replaces path (following a symlink to its target) with
// data, keeping the file's permissions, so a crash never leaves half a file.
func writeFileAtomic(path string, data []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".config-*.yaml")
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op once renamed
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("config %s: write: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}
