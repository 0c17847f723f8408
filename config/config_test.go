package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const fullYAML = `# kgroups contexts
current-context: prod
contexts:
  - name: local
    brokers: [127.0.0.1:9092]
  - name: prod   # the big one
    brokers:
      - kafka-1.prod:9093
      - kafka-2.prod:9093
    tls:
      enabled: true
      ca_file: /etc/kafka/ca.pem
      cert_file: /etc/kafka/client.pem
      key_file: /etc/kafka/client-key.pem
      server_name: kafka.prod
      insecure_skip_verify: false
    sasl:
      mechanism: scram-sha-512
      username: ops
      password_env: KAFKA_PROD_PASSWORD
    client_id: kgroups-ops
    request_timeout: 3s
    refresh: 1m
    read_only: true
    protected: true
  - name: oauth
    brokers: "k1:9094, k2:9094"
    sasl: {mechanism: OAUTHBEARER, token: tok-SECRET-123}
`

func TestLoadFull(t *testing.T) {
	path := writeConfig(t, fullYAML)
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Path != path || !cfg.Found || cfg.CurrentContext != "prod" {
		t.Fatalf("Path=%q Found=%v CurrentContext=%q", cfg.Path, cfg.Found, cfg.CurrentContext)
	}
	if got := cfg.Names(); !reflect.DeepEqual(got, []string{"local", "prod", "oauth"}) {
		t.Fatalf("Names = %v", got)
	}
	prod, _ := cfg.Context("prod")
	prod.origin = nil
	want := Cluster{
		Name:    "prod",
		Brokers: []string{"kafka-1.prod:9093", "kafka-2.prod:9093"},
		TLS: TLSConfig{Enabled: true, CAFile: "/etc/kafka/ca.pem", CertFile: "/etc/kafka/client.pem",
			KeyFile: "/etc/kafka/client-key.pem", ServerName: "kafka.prod"},
		SASL:           SASLConfig{Mechanism: "scram-sha-512", Username: "ops", PasswordEnv: "KAFKA_PROD_PASSWORD"},
		ClientID:       "kgroups-ops",
		RequestTimeout: 3 * time.Second,
		Refresh:        time.Minute,
		ReadOnly:       true,
		Protected:      true,
	}
	if !reflect.DeepEqual(prod, want) {
		t.Fatalf("prod =\n%+v\nwant\n%+v", prod, want)
	}
	oauth, _ := cfg.Context("oauth")
	if !reflect.DeepEqual(oauth.Brokers, []string{"k1:9094", "k2:9094"}) || oauth.SASL.Token != "tok-SECRET-123" {
		t.Fatalf("oauth = %+v", oauth)
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.yaml")
	cfg, err := Load(path, false)
	if err != nil {
		t.Fatalf("default path may be absent: %v", err)
	}
	if cfg.Found || len(cfg.Contexts) != 0 || cfg.Path != path {
		t.Fatalf("cfg = %+v", cfg)
	}
	_, err = Load(path, true)
	if err == nil || err.Error() != "config "+path+": file does not exist" {
		t.Fatalf("explicit missing file: err = %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	const f = "/etc/kg.yaml"
	tests := []struct {
		name, yaml, want string
	}{
		{"bad YAML", "current-context: a\ncontexts:\n  - name: a\n    brokers: k:1: x\n", "config /etc/kg.yaml: invalid YAML: line 4: mapping values are not allowed in this context"},
		{"bad YAML stray line", "contexts:\n  - name: a\n    brokers: x\n  bad\n", "config /etc/kg.yaml: invalid YAML: line 4: could not find expected ':'"},
		{"tab indent", "contexts:\n\t- name: a\n", "config /etc/kg.yaml: invalid YAML: line 2: found character that cannot start any token"},
		{"top level list", "- a\n- b\n", "config /etc/kg.yaml: line 1: the top level must be a mapping with current-context and contexts"},
		{"unknown top key", "current_context: a\n", `config /etc/kg.yaml: line 1: current_context: unknown key (known: current-context, contexts)`},
		{"contexts not a list", "contexts: {a: 1}\n", "config /etc/kg.yaml: line 1: contexts: must be a list of contexts, each with a name"},
		{"missing name", "contexts:\n  - brokers: [a:1]\n", "config /etc/kg.yaml: line 2: contexts[0].name: missing: every context needs a name"},
		{"duplicate name", "contexts:\n  - name: a\n  - name: b\n  - name: a\n", `config /etc/kg.yaml: line 4: contexts[2].name: duplicate context name "a" (also contexts[0])`},
		{"unknown context key", "contexts:\n  - name: p\n    pasword: x\n", "config /etc/kg.yaml: line 3: contexts[p].pasword: unknown key (known: name, brokers, tls, sasl, client_id, request_timeout, refresh, read_only, protected, serve, groups)"},
		{"unknown sasl key", "contexts:\n  - name: p\n    sasl:\n      passwd: hunter2\n", "config /etc/kg.yaml: line 4: contexts[p].sasl.passwd: unknown key (known: mechanism, username, password, password_env, password_file, password_cmd, token, token_file)"},
		{"bad bool", "contexts:\n  - name: p\n    read_only: sometimes\n", `config /etc/kg.yaml: line 3: contexts[p].read_only: want true or false, got "sometimes"`},
		{"bad duration", "contexts:\n  - name: p\n    request_timeout: 10\n", `config /etc/kg.yaml: line 3: contexts[p].request_timeout: want a duration like 500ms, 10s or 1m, got "10"`},
		{"negative duration", "contexts:\n  - name: p\n    refresh: -5s\n", `config /etc/kg.yaml: line 3: contexts[p].refresh: must be positive, got "-5s"`},
		{"tls not a mapping", "contexts:\n  - name: p\n    tls: true\n", "config /etc/kg.yaml: line 3: contexts[p].tls: must be a mapping of enabled, ca_file, cert_file, key_file, server_name, insecure_skip_verify"},
		{"repeated key", "contexts:\n  - name: p\n    refresh: 1s\n    refresh: 2s\n", "config /etc/kg.yaml: line 4: contexts[p].refresh: set more than once"},
		{"password a list", "contexts:\n  - name: p\n    sasl:\n      password: [hunter2]\n", "config /etc/kg.yaml: line 4: contexts[p].sasl.password: must be a single value, not a list or mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), f)
			if err == nil {
				t.Fatalf("Parse succeeded, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Fatalf("error = %q\nwant    %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error reveals a secret: %q", err)
			}
		})
	}
}

func TestParseEmpty(t *testing.T) {
	for _, body := range []string{"", "# nothing yet\n", "\n\n"} {
		cfg, err := Parse([]byte(body), "f")
		if err != nil || len(cfg.Contexts) != 0 || cfg.CurrentContext != "" {
			t.Fatalf("Parse(%q) = %+v, %v", body, cfg, err)
		}
	}
}

func TestEffectivePrecedence(t *testing.T) {
	path := writeConfig(t, fullYAML)
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KAFKA_PROD_PASSWORD", "x")

	// No overrides: the file's current context, with its own values.
	c, err := cfg.Effective(Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "prod" || c.RequestTimeout != 3*time.Second || c.SASL.Mechanism != MechanismScramSHA512 || c.ClientID != "kgroups-ops" {
		t.Fatalf("file context = %+v", c)
	}
	if c.Where("request_timeout") != "config "+path+": contexts[prod].request_timeout" {
		t.Fatalf("Where(request_timeout) = %q", c.Where("request_timeout"))
	}

	// A context without values gets the defaults.
	c, err = cfg.Effective(Selection{Context: "local", ContextSource: Flag("context")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "local" || c.RequestTimeout != DefaultRequestTimeout || c.Refresh != DefaultRefresh || c.ClientID != DefaultClientID || c.ReadOnly {
		t.Fatalf("defaults = %+v", c)
	}

	// Overrides beat the file, field by field; the rest stays.
	c, err = cfg.Effective(Selection{Overrides: []Override{
		{Key: "request_timeout", Value: "7s", Source: Flag("timeout")},
		{Key: "brokers", Value: "kafka-2.prod:9093", Source: Env("KGROUPS_BROKERS")},
		{Key: "read_only", Value: "false", Source: Env("KGROUPS_READ_ONLY")},
		{Key: "sasl.password", Value: "from-env", Source: Env("KGROUPS_SASL_PASSWORD")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// ... except a guard the file turns on: KGROUPS_READ_ONLY=false
	// cannot loosen it (see TestGuardsOnlyTighten).
	if c.Name != "prod" || c.RequestTimeout != 7*time.Second || !reflect.DeepEqual(c.Brokers, []string{"kafka-2.prod:9093"}) || !c.ReadOnly || c.Refresh != time.Minute {
		t.Fatalf("overridden = %+v", c)
	}
	// The password override replaces password_env instead of clashing.
	if c.SASL.Password != "from-env" || c.SASL.PasswordEnv != "" {
		t.Fatalf("password sources = %+v", c.SASL)
	}
	if c.Where("request_timeout") != "--timeout" || c.Where("brokers") != "KGROUPS_BROKERS" {
		t.Fatalf("origins: %q %q", c.Where("request_timeout"), c.Where("brokers"))
	}
}

func TestEffectiveAdHoc(t *testing.T) {
	cfg, err := Load(filepath.Join(t.TempDir(), "absent.yaml"), false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cfg.Effective(Selection{Overrides: []Override{{Key: "brokers", Value: "127.0.0.1:9092", Source: Flag("brokers")}}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != AdHocContext || !reflect.DeepEqual(c.Brokers, []string{"127.0.0.1:9092"}) || c.RequestTimeout != DefaultRequestTimeout || c.ClientID != DefaultClientID {
		t.Fatalf("ad-hoc = %+v", c)
	}
	if c.TLS.Enabled || c.SASL.Mechanism != "" {
		t.Fatalf("ad-hoc must not enable TLS or SASL: %+v", c)
	}

	_, err = cfg.Effective(Selection{})
	if !errors.Is(err, ErrNoContext) || !strings.Contains(err.Error(), "pass -b/--brokers host:port,... or set KGROUPS_BROKERS") {
		t.Fatalf("no brokers: err = %v", err)
	}
}

func TestValidate(t *testing.T) {
	const secret = "Sup3r-s3cret-pw"
	path := writeConfig(t, `current-context: a
contexts:
  - name: a
    brokers: [k:9092]
  - name: b
    brokers: [k:9092]
`)
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	mechList := "(accepted: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM)"
	tests := []struct {
		name string
		yaml string
		sel  Selection
		want string
	}{
		{
			name: "unknown mechanism",
			yaml: "contexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: PLAN, username: u, password: " + secret + "}\n",
			sel:  Selection{Context: "prod", ContextSource: Flag("context")},
			want: `config FILE: contexts[prod].sasl.mechanism: unknown mechanism "PLAN" ` + mechList,
		},
		{
			name: "unknown mechanism from env",
			yaml: "contexts:\n  - name: prod\n    brokers: [k:1]\n",
			sel:  Selection{Context: "prod", ContextSource: Flag("context"), Overrides: []Override{{Key: "sasl.mechanism", Value: "GSSAPI", Source: Env("KGROUPS_SASL_MECHANISM")}}},
			want: `KGROUPS_SASL_MECHANISM: unknown mechanism "GSSAPI" ` + mechList,
		},
		{
			name: "missing brokers",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n",
			want: "config FILE: contexts[prod].brokers: missing: at least one host:port is required",
		},
		{
			name: "bad host:port",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [kafka-1]\n",
			want: `config FILE: contexts[prod].brokers: bad broker address "kafka-1": want host:port, e.g. kafka-1:9092`,
		},
		{
			name: "bad port from flag",
			yaml: "",
			sel:  Selection{Overrides: []Override{{Key: "brokers", Value: "k:99999", Source: Flag("brokers")}}},
			want: `--brokers: bad broker address "k:99999": port must be a number from 1 to 65535`,
		},
		{
			name: "two password sources",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: PLAIN, username: u, password: " + secret + ", password_file: /run/pw}\n",
			want: "config FILE: contexts[prod].sasl.password_file: more than one password source (sasl.password, sasl.password_file): set exactly one",
		},
		{
			name: "no password",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: SCRAM-SHA-256, username: u}\n",
			want: "config FILE: contexts[prod].sasl.password: missing: SCRAM-SHA-256 needs one of password, password_env, password_file, password_cmd",
		},
		{
			name: "no username",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: PLAIN, password: " + secret + "}\n",
			want: "config FILE: contexts[prod].sasl.username: missing: PLAIN needs a username",
		},
		{
			name: "username without mechanism",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {username: u, password: " + secret + "}\n",
			want: "config FILE: contexts[prod].sasl.username: set but sasl.mechanism is empty " + mechList,
		},
		{
			name: "oauth without token",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: OAUTHBEARER}\n",
			want: "config FILE: contexts[prod].sasl.token: missing: OAUTHBEARER needs token or token_file",
		},
		{
			name: "cert without key",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    tls: {cert_file: /c.pem}\n",
			want: "config FILE: contexts[prod].tls.cert_file: set without tls.key_file: mTLS needs both the certificate and its key",
		},
		{
			name: "key without cert",
			yaml: "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    tls: {key_file: /k.pem}\n",
			want: "config FILE: contexts[prod].tls.key_file: set without tls.cert_file: mTLS needs both the certificate and its key",
		},
		{
			name: "unknown current-context",
			yaml: "current-context: stage\ncontexts:\n  - name: prod\n    brokers: [k:1]\n  - name: dev\n    brokers: [k:1]\n",
			want: `config FILE: current-context: unknown context "stage" in FILE (known: dev, prod)`,
		},
		{
			name: "unknown --context",
			yaml: "contexts:\n  - name: prod\n    brokers: [k:1]\n",
			sel:  Selection{Context: "prdo", ContextSource: Flag("context")},
			want: `--context: unknown context "prdo" in FILE (known: prod)`,
		},
		{
			name: "bad timeout from env",
			yaml: "",
			sel:  Selection{Overrides: []Override{{Key: "brokers", Value: "k:1", Source: Flag("brokers")}, {Key: "request_timeout", Value: "soon", Source: Env("KGROUPS_TIMEOUT")}}},
			want: `KGROUPS_TIMEOUT: want a duration like 500ms, 10s or 1m, got "soon"`,
		},
		{
			name: "bad bool from env",
			yaml: "",
			sel:  Selection{Overrides: []Override{{Key: "brokers", Value: "k:1", Source: Flag("brokers")}, {Key: "read_only", Value: "yes please", Source: Env("KGROUPS_READ_ONLY")}}},
			want: `KGROUPS_READ_ONLY: want true or false, got "yes please"`,
		},
		{
			name: "no context selected",
			yaml: "contexts:\n  - name: prod\n    brokers: [k:1]\n",
			want: "no context selected: set current-context in FILE, pass --context NAME (known: prod), or pass -b/--brokers host:port,... or set KGROUPS_BROKERS",
		},
	}
	_ = cfg
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.yaml)
			cfg, err := Load(p, true)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			_, err = cfg.Effective(tt.sel)
			want := strings.ReplaceAll(tt.want, "FILE", p)
			if err == nil || err.Error() != want {
				t.Fatalf("error = %v\nwant    %s", err, want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("error reveals the password: %q", err)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	for name, c := range map[string]Cluster{
		"plain":        {Brokers: []string{"k:1"}, SASL: SASLConfig{Mechanism: MechanismPlain, Username: "u", PasswordCmd: "pass kafka"}},
		"ipv6":         {Brokers: []string{"[::1]:9092"}},
		"oauth file":   {Brokers: []string{"k:1"}, SASL: SASLConfig{Mechanism: MechanismOAuthBearer, TokenFile: "/t"}},
		"msk":          {Brokers: []string{"k:1"}, TLS: TLSConfig{Enabled: true}, SASL: SASLConfig{Mechanism: MechanismAWSMSKIAM}},
		"mtls":         {Brokers: []string{"k:1"}, TLS: TLSConfig{CertFile: "/c", KeyFile: "/k"}},
		"scram env pw": {Brokers: []string{"k:1"}, SASL: SASLConfig{Mechanism: MechanismScramSHA256, Username: "u", PasswordEnv: "PW"}},
	} {
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTLSImplied(t *testing.T) {
	cfg, err := Parse([]byte("current-context: p\ncontexts:\n  - name: p\n    brokers: [k:1]\n    tls: {ca_file: /ca.pem}\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	c, err := cfg.Effective(Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.TLS.Enabled {
		t.Fatal("tls.ca_file should turn TLS on")
	}
}

func TestResolvePassword(t *testing.T) {
	const pw = "pa55-w0rd-xyz"
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	if err := os.WriteFile(file, []byte("  "+pw+"\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KG_TEST_PW", pw)
	t.Setenv("KG_TEST_EMPTY", "")
	ok := map[string]SASLConfig{
		"inline": {Password: pw},
		"env":    {PasswordEnv: "KG_TEST_PW"},
		"file":   {PasswordFile: file},
		"cmd":    {PasswordCmd: "printf '%s\\n' " + pw},
	}
	for name, s := range ok {
		got, err := s.ResolvePassword(context.Background())
		if err != nil || got != pw {
			t.Errorf("%s: got %q, %v", name, got, err)
		}
	}
	bad := []struct {
		name string
		s    SASLConfig
		want string
	}{
		{"env unset", SASLConfig{PasswordEnv: "KG_TEST_UNSET_VAR"}, "sasl.password_env: environment variable KG_TEST_UNSET_VAR is not set"},
		{"env empty", SASLConfig{PasswordEnv: "KG_TEST_EMPTY"}, "sasl.password_env: environment variable KG_TEST_EMPTY is empty"},
		{"file missing", SASLConfig{PasswordFile: filepath.Join(dir, "none")}, "sasl.password_file: open " + filepath.Join(dir, "none") + ": no such file or directory"},
		{"file empty", SASLConfig{PasswordFile: empty}, "sasl.password_file: " + empty + " is empty"},
		{"cmd fails", SASLConfig{PasswordCmd: "echo " + pw + "; echo " + pw + " >&2; exit 4"}, "sasl.password_cmd: command failed (exit status 4); its output is not shown because it may hold the secret: run it yourself to see why"},
		{"cmd prints nothing", SASLConfig{PasswordCmd: "true"}, "sasl.password_cmd: command printed nothing"},
		{"nothing set", SASLConfig{}, "sasl: no password set (set one of password, password_env, password_file, password_cmd)"},
	}
	for _, tt := range bad {
		_, err := tt.s.ResolvePassword(context.Background())
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: err = %v\nwant %s", tt.name, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), pw) {
			t.Errorf("%s: error reveals the password: %q", tt.name, err)
		}
	}
}

func TestResolvePasswordCmdDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := SASLConfig{PasswordCmd: "sleep 30; echo late"}.ResolvePassword(ctx)
	if err == nil || !strings.Contains(err.Error(), "sasl.password_cmd: command did not finish in time") {
		t.Fatalf("err = %v", err)
	}
}

func TestResolveToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(file, []byte("eyJtoken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range []SASLConfig{{Token: "eyJtoken"}, {TokenFile: file}} {
		got, err := s.ResolveToken(context.Background())
		if err != nil || got != "eyJtoken" {
			t.Fatalf("%+v: %q, %v", s, got, err)
		}
	}
	if _, err := (SASLConfig{}).ResolveToken(context.Background()); err == nil || err.Error() != "sasl: no token set (set token or token_file)" {
		t.Fatalf("err = %v", err)
	}
}

func TestViewMasksSecrets(t *testing.T) {
	path := writeConfig(t, `current-context: p
contexts:
  - name: p
    brokers: [k:1]
    sasl: {mechanism: PLAIN, username: u, password: hunter2-SECRET}
  - name: o
    brokers: [k:1]
    sasl: {mechanism: OAUTHBEARER, token: tok-SECRET}
  - name: f
    brokers: [k:1]
    sasl: {mechanism: PLAIN, username: u, password_cmd: "pass show kafka"}
`)
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := cfg.Effective(Selection{Overrides: []Override{{Key: "request_timeout", Value: "4s", Source: Flag("timeout")}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cfg.View(&eff)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	want := `current-context: p
contexts:
  - name: p
    brokers:
      - k:1
    sasl:
      mechanism: PLAIN
      username: u
      password: '****'
    client_id: kgroups
    request_timeout: 4s
    refresh: 5s
    read_only: false
    protected: false
    serve:
      listen: 127.0.0.1:9308
      granularity: group
      max_series: "100000"
  - name: o
    brokers:
      - k:1
    sasl:
      mechanism: OAUTHBEARER
      token: '****'
    client_id: kgroups
    request_timeout: 10s
    refresh: 5s
    read_only: false
    protected: false
    serve:
      listen: 127.0.0.1:9308
      granularity: group
      max_series: "100000"
  - name: f
    brokers:
      - k:1
    sasl:
      mechanism: PLAIN
      username: u
      password_cmd: <set>
    client_id: kgroups
    request_timeout: 10s
    refresh: 5s
    read_only: false
    protected: false
    serve:
      listen: 127.0.0.1:9308
      granularity: group
      max_series: "100000"
`
	if got != want {
		t.Fatalf("View =\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "SECRET") || strings.Contains(got, "pass show") {
		t.Fatal("a secret or a password command leaked into the view")
	}
	// The view must itself be a valid configuration file.
	if _, err := Parse(out, "view"); err != nil {
		t.Fatalf("view does not parse back: %v", err)
	}
	// Masking copies: the original keeps its secret for connecting.
	if eff.SASL.Password != "hunter2-SECRET" {
		t.Fatal("Masked changed the original context")
	}
}

func TestUseContext(t *testing.T) {
	body := "# my clusters\ncurrent-context: local # where I start\ncontexts:\n  - name: local\n    brokers: [127.0.0.1:9092]\n  - name: prod\n    brokers: [k:1]   # keep me\n"
	path := writeConfig(t, body)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := UseContext(path, "prod"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := strings.Replace(body, "current-context: local # where I start", "current-context: prod # where I start", 1)
	if string(got) != want {
		t.Fatalf("file =\n%s\nwant\n%s", got, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode = %v, want 0640 kept", st.Mode().Perm())
	}

	// Unknown context: error listing the known ones, file untouched.
	err := UseContext(path, "staging")
	wantErr := `config ` + path + `: unknown context "staging" (known: local, prod)`
	if err == nil || err.Error() != wantErr {
		t.Fatalf("err = %v\nwant %s", err, wantErr)
	}
	after, _ := os.ReadFile(path)
	if string(after) != want {
		t.Fatal("a failed use changed the file")
	}
}

func TestUseContextAddsLine(t *testing.T) {
	body := "contexts:\n  - name: \"yes\"\n    brokers: [k:1]\n"
	path := writeConfig(t, body)
	if err := UseContext(path, "yes"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "current-context: \"yes\"\n"+body {
		t.Fatalf("file =\n%s", got)
	}
	cfg, err := Load(path, true)
	if err != nil || cfg.CurrentContext != "yes" {
		t.Fatalf("reload: %+v, %v", cfg, err)
	}
}

func TestUseContextFlowStyle(t *testing.T) {
	path := writeConfig(t, "{current-context: a, contexts: [{name: a, brokers: [k:1]}, {name: b, brokers: [k:2]}]}\n")
	if err := UseContext(path, "b"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CurrentContext != "b" || len(cfg.Contexts) != 2 || cfg.Contexts[1].Brokers[0] != "k:2" {
		t.Fatalf("after use: %+v", cfg)
	}
}

func TestUseContextMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.yaml")
	err := UseContext(path, "x")
	if err == nil || err.Error() != "config "+path+": file does not exist" {
		t.Fatalf("err = %v", err)
	}
}

func TestPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	if p, _ := DefaultPath(); p != filepath.Join(home, ".config", "kgroups", "config.yaml") {
		t.Fatalf("DefaultPath fallback = %q", p)
	}
	if p, _ := StateDir(); p != filepath.Join(home, ".local", "state", "kgroups") {
		t.Fatalf("StateDir fallback = %q", p)
	}
	t.Setenv("XDG_CONFIG_HOME", "/xdg/config")
	t.Setenv("XDG_STATE_HOME", "/xdg/state")
	if p, _ := DefaultPath(); p != "/xdg/config/kgroups/config.yaml" {
		t.Fatalf("DefaultPath = %q", p)
	}
	if p, _ := StateDir(); p != "/xdg/state/kgroups" {
		t.Fatalf("StateDir = %q", p)
	}
	// Relative XDG paths are invalid per the spec and ignored.
	t.Setenv("XDG_CONFIG_HOME", "relative/dir")
	if p, _ := DefaultPath(); p != filepath.Join(home, ".config", "kgroups", "config.yaml") {
		t.Fatalf("relative XDG_CONFIG_HOME: %q", p)
	}
}

func TestAdHocErrorsSayHowToSet(t *testing.T) {
	cfg := &Config{}
	_, err := cfg.Effective(Selection{Overrides: []Override{
		{Key: "brokers", Value: "k:1", Source: Flag("brokers")},
		{Key: "sasl.mechanism", Value: "PLAIN", Source: Env("KGROUPS_SASL_MECHANISM")},
	}})
	want := "sasl.username (--sasl-username or KGROUPS_SASL_USERNAME): missing: PLAIN needs a username\n" +
		"sasl.password (KGROUPS_SASL_PASSWORD): missing: PLAIN needs one of password, password_env, password_file, password_cmd"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}
