package config

import (
	"strings"
	"testing"
)

// TestViewEscapesHiddenCharacters: `config view` writes a context name
// (or any value) holding a bidi override, a default-ignorable character
// or a control as a double-quoted YAML scalar with \u escapes, so nothing
// on screen reorders or hides, and the text still reads back as the same
// configuration.
func TestViewEscapesHiddenCharacters(t *testing.T) {
	src := "current-context: \"prod\\u202Eved\"\ncontexts:\n  - name: \"prod\\u202Eved\"\n    brokers: [k:1]\n  - name: \"ev\\u034Fil\\u3164\"\n    brokers: [k:1]\n    client_id: \"a\\tb\\U000E0001\"\n  - name: 日本\n    brokers: [k:1]\n"
	cfg, err := Parse([]byte(src), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cfg.View(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"current-context: \"prod\\u202Eved\"\n",
		"  - name: \"prod\\u202Eved\"\n",
		"  - name: \"ev\\u034Fil\\u3164\"\n",
		"    client_id: \"a\\tb\\U000E0001\"\n",
		"  - name: 日本\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(string(out), "\u202e\u034f\u3164\t\U000E0001") {
		t.Errorf("a hidden character is written raw:\n%q", out)
	}
	back, err := Parse(out, "view")
	if err != nil {
		t.Fatal(err)
	}
	if back.CurrentContext != cfg.CurrentContext || strings.Join(back.Names(), "|") != strings.Join(cfg.Names(), "|") || back.Contexts[1].ClientID != "a\tb\U000E0001" {
		t.Errorf("read back: %q %q %q", back.CurrentContext, back.Names(), back.Contexts[1].ClientID)
	}
}
