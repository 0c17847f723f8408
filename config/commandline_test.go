package config

import (
	"reflect"
	"testing"
)

// TestCommandLine: a flag beats its variable, each override names its
// source, and the TLS and SASL flags are declared but hidden.
func TestCommandLine(t *testing.T) {
	for i := range Settings {
		if s := &Settings[i]; s.Env != "" {
			t.Setenv(s.Env, "")
		}
	}
	t.Setenv("KGROUPS_TIMEOUT", "5s")
	t.Setenv("KGROUPS_BROKERS", "env:1")
	t.Setenv("KGROUPS_CONTEXT", "from-env")
	t.Setenv("KGROUPS_CONFIG", "/etc/kg.yaml")
	t.Setenv("KGROUPS_DEBUG", "/tmp/from-env.log")
	cl := NewCommandLine()
	if err := cl.Flags().Parse([]string{"-b", "flag:1,flag:2", "--read-only", "--tls-ca-file", "/ca.pem"}); err != nil {
		t.Fatal(err)
	}
	if path, given := cl.ConfigPath(); path != "/etc/kg.yaml" || !given {
		t.Errorf("config path %q given %v", path, given)
	}
	if path := cl.DebugPath(); path != "/tmp/from-env.log" {
		t.Errorf("debug path %q, want the variable's", path)
	}
	sel := cl.Selection()
	want := Selection{
		Context:       "from-env",
		ContextSource: Env("KGROUPS_CONTEXT"),
		Overrides: []Override{
			{Key: "brokers", Value: "flag:1,flag:2", Source: Flag("brokers")},
			{Key: "tls.ca_file", Value: "/ca.pem", Source: Flag("tls-ca-file")},
			{Key: "request_timeout", Value: "5s", Source: Env("KGROUPS_TIMEOUT")},
			{Key: "read_only", Value: "true", Source: Flag("read-only")},
		},
	}
	if !reflect.DeepEqual(sel, want) {
		t.Errorf("selection\n got %+v\nwant %+v", sel, want)
	}
	if f := cl.Flags().Lookup("tls-ca-file"); f == nil || !f.Hidden {
		t.Error("--tls-ca-file should be declared and hidden")
	}
	if f := cl.Flags().Lookup("client-id"); f == nil || f.Hidden || f.Usage != `client id sent to the brokers (default "kgroups") [$KGROUPS_CLIENT_ID]` {
		t.Errorf("--client-id: %+v", f)
	}
	if f := cl.Flags().Lookup("timeout"); f == nil || f.Usage != "request timeout (default 10s) [$KGROUPS_TIMEOUT]" {
		t.Errorf("--timeout: %+v", f)
	}
	if cl.Flags().Lookup("sasl-password") != nil {
		t.Error("a password must never be a flag")
	}
}
