package main

import (
	"os"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/config"
)

// The markers around docs/configuration.md's table of every setting.
const (
	settingsBegin = "<!-- settings table: config.Settings, checked by TestSettingsTableDoc -->\n"
	settingsEnd   = "<!-- end of settings table -->"
)

// settingsTable is docs/configuration.md's table of every setting, made
// from config.Settings: its key in a context, its flag, its variable, its
// default and what it does. A new setting is one entry there; this line
// of the docs follows with `go test -run TestSettingsTableDoc -update`.
func settingsTable() string {
	var b strings.Builder
	b.WriteString("| key | flag | variable | default | what it sets |\n| --- | --- | --- | --- | --- |\n")
	cell := func(s, wrap string) string {
		if s == "" {
			return "-"
		}
		return wrap + strings.ReplaceAll(s, "|", `\|`) + wrap
	}
	for i := range config.Settings {
		s := &config.Settings[i]
		key := cell(s.Key, "`")
		switch s.Key {
		case config.KeyConfig, config.KeyContext, config.KeyDebug:
			key = "- (" + s.Key + ": not in a context)"
		}
		flag := "-"
		if s.Flag != "" {
			flag = "`--" + s.Flag + "`"
			if s.Short != "" {
				flag = "`-" + s.Short + "`, " + flag
			}
		}
		b.WriteString("| " + key + " | " + flag + " | " + cell(s.Env, "`") + " | " + cell(s.Default, "`") + " | " + cell(s.Usage, "") + " |\n")
	}
	return b.String()
}

// TestSettingsTableDoc holds docs/configuration.md's table of settings to
// config.Settings; -update rewrites it.
func TestSettingsTableDoc(t *testing.T) {
	const path = "../../docs/configuration.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, settingsBegin), strings.Index(doc, settingsEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/configuration.md lacks the settings table's markers %q and %q", settingsBegin, settingsEnd)
	}
	got, want := doc[i+len(settingsBegin):j], settingsTable()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i+len(settingsBegin)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/configuration.md's settings table is not config.Settings (go test ./cmd/kgroups -run TestSettingsTableDoc -update rewrites it):\n--- docs ---\n%s--- want ---\n%s", got, want)
}
