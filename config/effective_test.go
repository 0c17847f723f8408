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

// TestCredentialsBoundToTheirBrokers: a context's SASL settings and TLS
// client certificate go only to the brokers it lists, or to brokers the
// user named on the command line together with the context. -b with the
// file's current-context, or brokers from a receipt, get none of them.
func TestCredentialsBoundToTheirBrokers(t *testing.T) {
	path := writeConfig(t, fullYAML)
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	brokers := func(v string, src Source) Override { return Override{Key: "brokers", Value: v, Source: src} }
	for _, tc := range []struct {
		name     string
		sel      Selection
		withheld bool
		note     string
	}{
		{name: "the context's own brokers", sel: Selection{}},
		{name: "-b one of the context's brokers", sel: Selection{Overrides: []Override{brokers("KAFKA-2.prod:9093", Flag("brokers"))}}},
		{name: "-b other brokers, current-context", withheld: true,
			sel:  Selection{Overrides: []Override{brokers("evil:9092", Flag("brokers"))}},
			note: "the brokers evil:9092 (--brokers) are not context prod's: its credentials (tls.cert_file, tls.key_file, sasl.mechanism, sasl.username, sasl.password_env) are not sent to them; to send them there, type both: --context prod -b evil:9092"},
		{name: "KGROUPS_BROKERS other brokers, current-context", withheld: true,
			sel:  Selection{Overrides: []Override{brokers("evil:9092", Env("KGROUPS_BROKERS"))}},
			note: "the brokers evil:9092 (KGROUPS_BROKERS) are not context prod's: its credentials (tls.cert_file, tls.key_file, sasl.mechanism, sasl.username, sasl.password_env) are not sent to them; to send them there, type both: --context prod -b evil:9092"},
		{name: "--context prod -b a tunnel", sel: Selection{Context: "prod", ContextSource: Flag("context"), Overrides: []Override{brokers("127.0.0.1:19093", Flag("brokers"))}}},
		{name: "KGROUPS_CONTEXT=prod -b other brokers", withheld: true,
			sel:  Selection{Context: "prod", ContextSource: Env("KGROUPS_CONTEXT"), Overrides: []Override{brokers("evil:9092", Flag("brokers"))}},
			note: "the brokers evil:9092 (--brokers) are not context prod's: its credentials (tls.cert_file, tls.key_file, sasl.mechanism, sasl.username, sasl.password_env) are not sent to them; to send them there, type both: --context prod -b evil:9092"},
		{name: "--context prod with KGROUPS_BROKERS other brokers", withheld: true,
			sel:  Selection{Context: "prod", ContextSource: Flag("context"), Overrides: []Override{brokers("evil:9092", Env("KGROUPS_BROKERS"))}},
			note: "the brokers evil:9092 (KGROUPS_BROKERS) are not context prod's: its credentials (tls.cert_file, tls.key_file, sasl.mechanism, sasl.username, sasl.password_env) are not sent to them; to send them there, type both: --context prod -b evil:9092"},
		{name: "a receipt's brokers, even with --context", withheld: true,
			sel:  Selection{Context: "prod", ContextSource: Flag("context"), Overrides: []Override{brokers("evil:9092", Source{Kind: SourceFile, Name: "receipt r.json: cluster"})}},
			note: "the brokers evil:9092 (receipt r.json: cluster) are not context prod's: its credentials (tls.cert_file, tls.key_file, sasl.mechanism, sasl.username, sasl.password_env) are not sent to them; to use them, name the cluster with --context prod or -b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cfg.Effective(tc.sel)
			if err != nil {
				t.Fatal(err)
			}
			if c.CredentialsWithheld() != tc.withheld {
				t.Fatalf("withheld = %v, want %v", c.CredentialsWithheld(), tc.withheld)
			}
			sent := c.SASL != (SASLConfig{}) || c.TLS.CertFile != "" || c.TLS.KeyFile != ""
			if sent == tc.withheld {
				t.Fatalf("credentials kept = %v (SASL %+v, cert %q, key %q)", sent, c.SASL, c.TLS.CertFile, c.TLS.KeyFile)
			}
			// TLS itself and its CA stay: they prove nothing of the user.
			if !c.TLS.Enabled || c.TLS.CAFile != "/etc/kafka/ca.pem" {
				t.Fatalf("TLS = %+v", c.TLS)
			}
			var notes string
			if len(c.Notes()) > 0 {
				notes = c.Notes()[0]
			}
			if notes != tc.note {
				t.Fatalf("note:\n got %q\nwant %q", notes, tc.note)
			}
		})
	}
	// Credentials given as variables with -b and no context are the
	// user's for those brokers: kept.
	t.Setenv("KAFKA_PROD_PASSWORD", "x")
	empty := &Config{}
	c, err := empty.Effective(Selection{Overrides: []Override{
		brokers("evil:9092", Flag("brokers")),
		{Key: "sasl.mechanism", Value: "PLAIN", Source: Env("KGROUPS_SASL_MECHANISM")},
		{Key: "sasl.username", Value: "u", Source: Env("KGROUPS_SASL_USERNAME")},
		{Key: "sasl.password", Value: "p", Source: Env("KGROUPS_SASL_PASSWORD")},
	}})
	if err != nil || c.CredentialsWithheld() || c.SASL.Password != "p" {
		t.Fatalf("ad-hoc with variables: %v %+v", err, c.SASL)
	}
}
