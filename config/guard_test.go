package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestGuardsOnlyTighten: read_only and protected set in the file cannot be
// switched off by a flag or an environment variable; those can only turn a
// guard on. An attempt to loosen keeps the guard and leaves a note naming
// the file's setting and what was tried.
func TestGuardsOnlyTighten(t *testing.T) {
	for _, g := range []struct {
		key, flag, env, word string
		get                  func(Cluster) bool
	}{
		{"read_only", "read-only", "KGROUPS_READ_ONLY", "read-only", func(c Cluster) bool { return c.ReadOnly }},
		{"protected", "protected", "KGROUPS_PROTECTED", "protected", func(c Cluster) bool { return c.Protected }},
	} {
		for _, file := range []bool{false, true} {
			const path = "/etc/kg.yaml"
			cfg, err := Parse([]byte(fmt.Sprintf("current-context: p\ncontexts:\n  - name: p\n    brokers: [k:1]\n    %s: %v\n", g.key, file)), path)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Path = path
			for _, src := range []Source{Flag(g.flag), Env(g.env)} {
				for _, val := range []string{"", "true", "false", "1", "0"} {
					name := fmt.Sprintf("%s/file=%v/%s=%q", g.key, file, src.Name, val)
					var sel Selection
					if val != "" {
						sel.Overrides = []Override{{Key: g.key, Value: val, Source: src}}
					}
					c, err := cfg.Effective(sel)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					on := val == "true" || val == "1"
					want := file || on
					if got := g.get(c); got != want {
						t.Errorf("%s: %s = %v, want %v", name, g.key, got, want)
					}
					loosen := file && (val == "false" || val == "0")
					var wantNotes []string
					if loosen {
						wantNotes = []string{fmt.Sprintf("context p is %s (config %s: contexts[p].%s: true); %s=%s cannot loosen it: edit the file or use another context", g.word, path, g.key, src.Name, val)}
					}
					if got := c.Notes(); strings.Join(got, "\n") != strings.Join(wantNotes, "\n") {
						t.Errorf("%s: notes %q, want %q", name, got, wantNotes)
					}
				}
			}
		}
	}
}

// TestHowToWrite: the refusal of a write says how to be allowed to write,
// depending on where read_only was turned on.
func TestHowToWrite(t *testing.T) {
	cfg, err := Parse([]byte("contexts:\n  - name: p\n    brokers: [k:1]\n    read_only: true\n  - name: q\n    brokers: [k:1]\n"), "/f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Path = "/f.yaml"
	for _, tc := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Context: "p"}, "edit the file (config /f.yaml: contexts[p].read_only: false; a flag or variable cannot loosen it) or use another context"},
		// The file's guard, given again by a flag, is still the file's.
		{Selection{Context: "p", Overrides: []Override{{Key: "read_only", Value: "true", Source: Flag("read-only")}}}, "edit the file (config /f.yaml: contexts[p].read_only: false; a flag or variable cannot loosen it) or use another context"},
		{Selection{Context: "q", Overrides: []Override{{Key: "read_only", Value: "true", Source: Flag("read-only")}}}, "leave out --read-only or use another context"},
		{Selection{Context: "q", Overrides: []Override{{Key: "read_only", Value: "1", Source: Env("KGROUPS_READ_ONLY")}}}, "unset KGROUPS_READ_ONLY or use another context"},
	} {
		c, err := cfg.Effective(tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		if !c.ReadOnly {
			t.Fatalf("%+v: not read-only", tc.sel)
		}
		if got := c.HowToWrite("read_only"); got != tc.want {
			t.Errorf("%+v: HowToWrite = %q, want %q", tc.sel, got, tc.want)
		}
	}
}
