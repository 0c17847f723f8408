package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestFromFlags(t *testing.T) {
	flag := func(name, msg string) error { return &SettingError{Key: name, Source: Flag(name), Msg: msg} }
	env := func(name, msg string) error { return &SettingError{Key: "x", Source: Env(name), Msg: msg} }
	file := &SettingError{Key: "brokers", Source: Source{Kind: SourceFile, Name: "config /f.yaml: contexts[p].brokers"}, Msg: "missing"}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{flag("brokers", `bad broker address "x"`), true},
		{errors.Join(flag("brokers", "bad"), flag("timeout", "must be positive")), true},
		{errors.Join(flag("brokers", "bad"), env("KGROUPS_TIMEOUT", "bad")), false},
		{file, false},
		{env("KGROUPS_CONTEXT", "unknown context"), false},
		// The text does not decide: a message that merely starts
		// with "--" is not a flag's.
		{errors.New("--brokers: bad"), false},
		{fmt.Errorf("wrapped: %w", flag("brokers", "bad")), false},
		{errors.Join(), false},
	} {
		if got := FromFlags(tc.err); got != tc.want {
			t.Errorf("FromFlags(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestEffectiveErrorsNameTheirSource: each problem Effective reports is a
// *SettingError that records whether the bad value came from a flag, the
// environment or the file.
func TestEffectiveErrorsNameTheirSource(t *testing.T) {
	cfg, err := Parse([]byte("current-context: p\ncontexts:\n  - name: p\n    brokers: [kafka-1]\n"), "/f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Path = "/f.yaml"
	for _, tc := range []struct {
		sel  Selection
		key  string
		kind SourceKind
		text string
	}{
		{Selection{}, "brokers", SourceFile, `config /f.yaml: contexts[p].brokers: bad broker address "kafka-1": want host:port, e.g. kafka-1:9092`},
		{Selection{Overrides: []Override{{Key: "brokers", Value: "k", Source: Flag("brokers")}}}, "brokers", SourceFlag, `--brokers: bad broker address "k": want host:port, e.g. kafka-1:9092`},
		{Selection{Overrides: []Override{{Key: "refresh", Value: "0s", Source: Env("KGROUPS_REFRESH")}}}, "refresh", SourceEnv, `KGROUPS_REFRESH: must be positive, got "0s"`},
		{Selection{Context: "q", ContextSource: Flag("context")}, KeyContext, SourceFlag, `--context: unknown context "q" in /f.yaml (known: p)`},
		{Selection{Context: "q", ContextSource: Env("KGROUPS_CONTEXT")}, KeyContext, SourceEnv, `KGROUPS_CONTEXT: unknown context "q" in /f.yaml (known: p)`},
	} {
		_, err := cfg.Effective(tc.sel)
		var se *SettingError
		if !errors.As(err, &se) || se.Key != tc.key || se.Source.Kind != tc.kind || err.Error() != tc.text {
			t.Errorf("%+v: err %v (%#v), want %s from %v: %s", tc.sel, err, se, tc.key, tc.kind, tc.text)
		}
	}
}

// TestSettingsTable checks the table every loader, validator and renderer
// reads: keys are unique, each flag and variable names one setting, the
// defaults parse, and only connection settings sit in the tls and sasl
// sections.
func TestSettingsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings {
		for _, name := range []string{"key " + s.Key, "flag " + s.Flag, "short " + s.Short, "env " + s.Env} {
			if strings.HasSuffix(name, " ") {
				continue
			}
			if seen[name] {
				t.Errorf("%s declared twice", name)
			}
			seen[name] = true
		}
		if s.Env != "" && !strings.HasPrefix(s.Env, "KGROUPS_") {
			t.Errorf("%s: variable %s is not KGROUPS_*", s.Key, s.Env)
		}
		if s.Secret && s.Flag != "" {
			t.Errorf("%s: a secret must not be a flag", s.Key)
		}
		if s.field == nil {
			if s.Key != KeyConfig && s.Key != KeyContext && s.Key != KeyDebug {
				t.Errorf("%s has no field", s.Key)
			}
			continue
		}
		if sec := s.Section(); (sec == "tls" || sec == "sasl") != s.Connection && s.Key != "brokers" {
			t.Errorf("%s: connection %v", s.Key, s.Connection)
		}
		var c Cluster
		if s.Default != "" {
			if err := s.set(&c, s.Default); err != nil || s.isZero(&c) {
				t.Errorf("%s: default %q: %v", s.Key, s.Default, err)
			}
		}
	}
	if got := sectionKeys(""); strings.Join(got, ",") != "name,brokers,tls,sasl,client_id,request_timeout,refresh,read_only,protected,serve,groups" {
		t.Errorf("context keys %q", got)
	}
	c := Cluster{}.withDefaults()
	if c.ClientID != DefaultClientID || c.RequestTimeout != DefaultRequestTimeout || c.Refresh != DefaultRefresh {
		t.Errorf("defaults %+v", c)
	}
}
