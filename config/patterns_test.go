package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestSplitPatterns: a list of regular expressions is split at the commas
// outside (), [] and {}, and at the line breaks that join a repeated
// flag's values; a bracket left open says how patterns are split.
func TestSplitPatterns(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  string
	}{
		{"a,b", []string{"a", "b"}, ""},
		{" console-consumer-.* , _confluent-.* ", []string{"console-consumer-.*", "_confluent-.*"}, ""},
		{"undo.{1,3}", []string{"undo.{1,3}"}, ""},
		{"undo.{1,3},legacy-(eu|us),x", []string{"undo.{1,3}", "legacy-(eu|us)", "x"}, ""},
		{"a[,;]b,c", []string{"a[,;]b", "c"}, ""},
		{"a[],]b,c", []string{"a[],]b", "c"}, ""},
		{"a[^],]b,c", []string{"a[^],]b", "c"}, ""},
		{`a\,b,c`, []string{`a\,b`, "c"}, ""},
		{`a\{,b`, []string{`a\{`, "b"}, ""},
		{"undo.{1,3}\nx,y", []string{"undo.{1,3}", "x", "y"}, ""},
		{",,", nil, ""},
		{"undo.{1,3", nil, `a (, [ or { is not closed in "undo.{1,3": patterns are split at the commas outside (), [] and {}; write \, for a comma elsewhere, or give each pattern its own flag or YAML list item`},
		{"a[b,c", nil, `a (, [ or { is not closed in "a[b,c"`},
	} {
		got, err := splitPatterns(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("splitPatterns(%q) error %v, want %s", tt.in, err, tt.err)
			}
		case err != nil || !reflect.DeepEqual(got, tt.want):
			t.Errorf("splitPatterns(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestGroupsSettings: the groups section is one definition for serve and
// health; the serve section's allow_groups, deny_groups and skip_empty
// still work as its older names, in the file and as variables, and are
// shown under the new keys; both names in one context is an error.
func TestGroupsSettings(t *testing.T) {
	for i := range Settings {
		if s := &Settings[i]; s.Env != "" {
			t.Setenv(s.Env, "")
		}
	}
	effective := func(t *testing.T, file string, sel Selection) (Cluster, error) {
		t.Helper()
		cfg, err := Parse([]byte("current-context: p\ncontexts:\n  - name: p\n    brokers: [k:9092]\n"+file), "/f.yaml")
		if err != nil {
			return Cluster{}, err
		}
		cfg.Path = "/f.yaml"
		return cfg.Effective(sel)
	}
	// The older names in the file.
	c, err := effective(t, "    serve:\n      deny_groups: [\"undo.{1,3}\", archived-.*]\n      skip_empty: true\n", Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (GroupsConfig{Deny: []string{"undo.{1,3}", "archived-.*"}, SkipEmpty: true}); !reflect.DeepEqual(c.Groups, want) {
		t.Errorf("groups from the serve section %+v, want %+v", c.Groups, want)
	}
	if w := c.Where("groups.deny"); w != "config /f.yaml: contexts[p].serve.deny_groups" {
		t.Errorf("groups.deny from %q", w)
	}
	// config view shows them under the new keys, once.
	b, err := (&Config{CurrentContext: "p"}).View(&c)
	if err != nil {
		t.Fatal(err)
	}
	if out := string(b); !strings.Contains(out, "groups:") || !strings.Contains(out, "- undo.{1,3}") || strings.Contains(out, "deny_groups") {
		t.Errorf("config view:\n%s", out)
	}
	// The new names, a string split outside braces.
	c, err = effective(t, "    groups:\n      deny: \"undo.{1,3}, x\"\n", Selection{})
	if err != nil || !reflect.DeepEqual(c.Groups.Deny, []string{"undo.{1,3}", "x"}) {
		t.Errorf("groups.deny %q, %v", c.Groups.Deny, err)
	}
	// Both names in one context.
	_, err = effective(t, "    serve:\n      deny_groups: [a]\n    groups:\n      deny: [b]\n", Selection{})
	if want := "config /f.yaml: line 8: contexts[p].groups.deny: set twice: also as contexts[p].serve.deny_groups (serve.deny_groups is the older name of groups.deny; keep groups.deny)"; err == nil || err.Error() != want {
		t.Errorf("both names: %v\nwant %s", err, want)
	}
	// The older variable still works; the new one wins over it.
	t.Setenv("KGROUPS_SERVE_SKIP_EMPTY", "true")
	t.Setenv("KGROUPS_SERVE_DENY_GROUPS", "old")
	cl := NewCommandLine()
	if err := cl.Flags().Parse(nil); err != nil {
		t.Fatal(err)
	}
	c, err = effective(t, "", cl.Selection())
	if err != nil || !c.Groups.SkipEmpty || !reflect.DeepEqual(c.Groups.Deny, []string{"old"}) {
		t.Errorf("older variables: %+v, %v", c.Groups, err)
	}
	t.Setenv("KGROUPS_DENY_GROUPS", "new.{1,3}")
	cl = NewCommandLine()
	if err := cl.Flags().Parse(nil); err != nil {
		t.Fatal(err)
	}
	c, err = effective(t, "", cl.Selection())
	if err != nil || !reflect.DeepEqual(c.Groups.Deny, []string{"new.{1,3}"}) {
		t.Errorf("new variable over the older: %+v, %v", c.Groups, err)
	}
	// The flag is repeatable, each value split outside brackets only.
	cl = NewCommandLine()
	if err := cl.Flags().Parse([]string{"--deny-groups", "undo.{1,3}", "--deny-groups", "a,b", "--allow-groups", "x"}); err != nil {
		t.Fatal(err)
	}
	c, err = effective(t, "", cl.Selection())
	if err != nil || !reflect.DeepEqual(c.Groups.Deny, []string{"undo.{1,3}", "a", "b"}) || !reflect.DeepEqual(c.Groups.Allow, []string{"x"}) {
		t.Errorf("repeated flags: %+v, %v", c.Groups, err)
	}
	if w := c.Where("groups.deny"); w != "--deny-groups" {
		t.Errorf("groups.deny from %q", w)
	}
	// A brace left open is a usage error naming the flag and the rule.
	cl = NewCommandLine()
	if err := cl.Flags().Parse([]string{"--deny-groups", "undo.{1,3"}); err != nil {
		t.Fatal(err)
	}
	_, err = effective(t, "", cl.Selection())
	if err == nil || !FromFlags(err) || !strings.HasPrefix(err.Error(), `--deny-groups: a (, [ or { is not closed in "undo.{1,3"`) {
		t.Errorf("open brace: %v (from flags %v)", err, FromFlags(err))
	}
}
