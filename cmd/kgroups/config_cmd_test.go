package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kgroups/kgroups/config"
)

// isolateConfig points kgroups at an empty XDG config home and clears every
// KGROUPS_* variable, so the developer's own setup cannot leak into a test.
// It returns the default config file path (not yet created).
func isolateConfig(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	for _, s := range config.Settings {
		if s.Env != "" {
			t.Setenv(s.Env, "")
			if err := os.Unsetenv(s.Env); err != nil {
				t.Fatal(err)
			}
		}
	}
	return filepath.Join(dir, "kgroups", "config.yaml")
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func runKgroups(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	code = run(ctx, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// effective runs `config view` and reads back the context in use.
func effective(t *testing.T, args ...string) config.Cluster {
	t.Helper()
	code, stdout, stderr := runKgroups(t, append(args, "config", "view")...)
	if code != 0 {
		t.Fatalf("config view %q: exit %d, stderr %q", args, code, stderr)
	}
	cfg, err := config.Parse([]byte(stdout), "view")
	if err != nil {
		t.Fatalf("config view output does not parse: %v\n%s", err, stdout)
	}
	c, ok := cfg.Context(cfg.CurrentContext)
	if !ok {
		t.Fatalf("config view has no current context:\n%s", stdout)
	}
	return c
}

const precedenceFile = `current-context: file-ctx
contexts:
  - name: file-ctx
    brokers: [file:9092]
    client_id: from-file
    request_timeout: 3s
    read_only: true
  - name: other
    brokers: [other:9092]
  - name: third
    brokers: [third:9092]
`

func TestConfigPrecedence(t *testing.T) {
	tests := []struct {
		name string
		file string // "" means no file at all
		env  map[string]string
		args []string
		// what to check on the effective context
		ctx, brokers, clientID string
		timeout                time.Duration
		readOnly               bool
	}{
		{
			name: "defaults with -b and no file",
			args: []string{"-b", "flag:1"},
			ctx:  config.AdHocContext, brokers: "flag:1", clientID: "kgroups", timeout: 10 * time.Second,
		},
		{
			name: "file beats defaults",
			file: precedenceFile,
			ctx:  "file-ctx", brokers: "file:9092", clientID: "from-file", timeout: 3 * time.Second, readOnly: true,
		},
		{
			// ... but a variable cannot loosen the file's read_only.
			name: "env beats file",
			file: precedenceFile,
			env:  map[string]string{"KGROUPS_TIMEOUT": "5s", "KGROUPS_BROKERS": "env:1,env:2", "KGROUPS_CLIENT_ID": "from-env", "KGROUPS_READ_ONLY": "false"},
			ctx:  "file-ctx", brokers: "env:1,env:2", clientID: "from-env", timeout: 5 * time.Second, readOnly: true,
		},
		{
			name: "flag beats env",
			file: precedenceFile,
			env:  map[string]string{"KGROUPS_TIMEOUT": "5s", "KGROUPS_BROKERS": "env:1", "KGROUPS_CLIENT_ID": "from-env", "KGROUPS_READ_ONLY": "false"},
			args: []string{"--timeout", "7s", "-b", "flag:1", "--client-id", "from-flag", "--read-only"},
			ctx:  "file-ctx", brokers: "flag:1", clientID: "from-flag", timeout: 7 * time.Second, readOnly: true,
		},
		{
			name: "KGROUPS_CONTEXT beats current-context",
			file: precedenceFile,
			env:  map[string]string{"KGROUPS_CONTEXT": "other"},
			ctx:  "other", brokers: "other:9092", clientID: "kgroups", timeout: 10 * time.Second,
		},
		{
			name: "--context beats KGROUPS_CONTEXT",
			file: precedenceFile,
			env:  map[string]string{"KGROUPS_CONTEXT": "other"},
			args: []string{"--context", "third"},
			ctx:  "third", brokers: "third:9092", clientID: "kgroups", timeout: 10 * time.Second,
		},
		{
			name: "-b overrides only the brokers of the file's context",
			file: precedenceFile,
			args: []string{"--brokers", "flag:1"},
			ctx:  "file-ctx", brokers: "flag:1", clientID: "from-file", timeout: 3 * time.Second, readOnly: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := isolateConfig(t)
			if tt.file != "" {
				writeFile(t, path, tt.file)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			c := effective(t, tt.args...)
			if c.Name != tt.ctx || strings.Join(c.Brokers, ",") != tt.brokers || c.ClientID != tt.clientID || c.RequestTimeout != tt.timeout || c.ReadOnly != tt.readOnly {
				t.Fatalf("effective = name %q brokers %v client %q timeout %s read-only %v\nwant name %q brokers %s client %q timeout %s read-only %v",
					c.Name, c.Brokers, c.ClientID, c.RequestTimeout, c.ReadOnly, tt.ctx, tt.brokers, tt.clientID, tt.timeout, tt.readOnly)
			}
		})
	}
}

func TestConfigFileLocation(t *testing.T) {
	path := isolateConfig(t)
	writeFile(t, path, "current-context: default-file\ncontexts:\n  - name: default-file\n    brokers: [d:1]\n")
	envFile := filepath.Join(t.TempDir(), "env.yaml")
	writeFile(t, envFile, "current-context: env-file\ncontexts:\n  - name: env-file\n    brokers: [e:1]\n")
	flagFile := filepath.Join(t.TempDir(), "flag.yaml")
	writeFile(t, flagFile, "current-context: flag-file\ncontexts:\n  - name: flag-file\n    brokers: [f:1]\n")

	if c := effective(t); c.Name != "default-file" {
		t.Fatalf("XDG default: %q", c.Name)
	}
	t.Setenv("KGROUPS_CONFIG", envFile)
	if c := effective(t); c.Name != "env-file" {
		t.Fatalf("KGROUPS_CONFIG: %q", c.Name)
	}
	if c := effective(t, "--config", flagFile); c.Name != "flag-file" {
		t.Fatalf("--config: %q", c.Name)
	}
}

func TestConfigErrors(t *testing.T) {
	const secret = "Hunter2-n0t-for-print"
	mechs := "(accepted: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM)"
	tests := []struct {
		name   string
		file   string
		env    map[string]string
		args   []string
		cmd    []string // default: config view
		code   int
		stderr string // FILE is replaced by the config path
	}{
		{
			name:   "bad YAML",
			file:   "current-context: p\ncontexts:\n  - name: p\n    brokers: a:1: b\n",
			code:   1,
			stderr: "kgroups: config FILE: invalid YAML: line 4: mapping values are not allowed in this context\n",
		},
		{
			name:   "unknown mechanism",
			file:   "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: PLAN, username: u, password: " + secret + "}\n",
			code:   1,
			stderr: `kgroups: config FILE: contexts[prod].sasl.mechanism: unknown mechanism "PLAN" ` + mechs + "\n",
		},
		{
			name:   "missing brokers",
			file:   "current-context: prod\ncontexts:\n  - name: prod\n    read_only: true\n",
			code:   1,
			stderr: "kgroups: config FILE: contexts[prod].brokers: missing: at least one host:port is required\n",
		},
		{
			name:   "no file and no brokers",
			cmd:    []string{"connect-check"},
			code:   1,
			stderr: "kgroups: no brokers: pass -b/--brokers host:port,... or set KGROUPS_BROKERS, or define a context in FILE\n",
		},
		{
			name:   "bad -b address is a usage error",
			args:   []string{"-b", "localhost"},
			code:   2,
			stderr: `kgroups: --brokers: bad broker address "localhost": want host:port, e.g. kafka-1:9092` + "\nRun 'kgroups config view --help' for usage.\n",
		},
		{
			name:   "unknown --context",
			file:   "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n  - name: dev\n    brokers: [k:1]\n",
			args:   []string{"--context", "stage"},
			code:   2,
			stderr: `kgroups: --context: unknown context "stage" in FILE (known: dev, prod)` + "\nRun 'kgroups config view --help' for usage.\n",
		},
		{
			name:   "unknown KGROUPS_CONTEXT",
			file:   "contexts:\n  - name: prod\n    brokers: [k:1]\n",
			env:    map[string]string{"KGROUPS_CONTEXT": "stage"},
			code:   1,
			stderr: `kgroups: KGROUPS_CONTEXT: unknown context "stage" in FILE (known: prod)` + "\n",
		},
		{
			name:   "bad KGROUPS_TIMEOUT is a config error",
			env:    map[string]string{"KGROUPS_TIMEOUT": "fast"},
			args:   []string{"-b", "k:1"},
			code:   1,
			stderr: `kgroups: KGROUPS_TIMEOUT: want a duration like 500ms, 10s or 1m, got "fast"` + "\n",
		},
		{
			name:   "bad --timeout is a usage error",
			args:   []string{"-b", "k:1", "--timeout", "fast"},
			code:   2,
			stderr: `kgroups: --timeout "fast": want a duration like 500ms, 10s or 1m (units ns, us, ms, s, m, h)` + "\nRun 'kgroups config view --help' for usage.\n",
		},
		{
			name:   "two password sources",
			file:   "current-context: prod\ncontexts:\n  - name: prod\n    brokers: [k:1]\n    sasl: {mechanism: PLAIN, username: u, password: " + secret + ", password_env: PW}\n",
			code:   1,
			stderr: "kgroups: config FILE: contexts[prod].sasl.password_env: more than one password source (sasl.password, sasl.password_env): set exactly one\n",
		},
		{
			name:   "cert without key on the command line",
			args:   []string{"-b", "k:1", "--tls-cert-file", "/c.pem"},
			code:   2,
			stderr: "kgroups: --tls-cert-file: set without tls.key_file: mTLS needs both the certificate and its key\nRun 'kgroups config view --help' for usage.\n",
		},
	}
	withConnectCmd(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := isolateConfig(t)
			if tt.file != "" {
				writeFile(t, path, tt.file)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			if tt.cmd == nil {
				tt.cmd = []string{"config", "view"}
			}
			code, stdout, stderr := runKgroups(t, append(tt.args, tt.cmd...)...)
			want := strings.ReplaceAll(tt.stderr, "FILE", path)
			if code != tt.code || stdout != "" || stderr != want {
				t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant exit %d, stderr %q", code, stdout, stderr, tt.code, want)
			}
			if strings.Contains(stderr, secret) {
				t.Fatal("a secret was printed")
			}
		})
	}
}

func TestConfigExplicitFileMissing(t *testing.T) {
	isolateConfig(t)
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	code, _, stderr := runKgroups(t, "--config", missing, "config", "view")
	if code != 1 || stderr != "kgroups: config "+missing+": file does not exist\n" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
}

func TestConfigViewMasksSecrets(t *testing.T) {
	const filePW, envPW, token = "F1le-pa55word", "Env-pa55word-77", "eyJ0b2tlbi1zZWNyZXQ"
	path := isolateConfig(t)
	writeFile(t, path, `current-context: prod
contexts:
  - name: prod
    brokers: [k1:9093]
    sasl: {mechanism: SCRAM-SHA-512, username: ops, password: `+filePW+`}
  - name: oauth
    brokers: [k2:9093]
    sasl: {mechanism: OAUTHBEARER, token: `+token+`}
`)
	for _, env := range []map[string]string{nil, {"KGROUPS_SASL_PASSWORD": envPW}} {
		for k, v := range env {
			t.Setenv(k, v)
		}
		code, stdout, stderr := runKgroups(t, "config", "view")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, s := range []string{filePW, envPW, token} {
			if strings.Contains(stdout+stderr, s) {
				t.Fatalf("config view printed a secret:\n%s", stdout)
			}
		}
		if strings.Count(stdout, "'****'") != 2 {
			t.Fatalf("want the password and the token masked:\n%s", stdout)
		}
	}
	code, stdout, _ := runKgroups(t, "config", "view")
	want := "# file: " + path + `
current-context: prod
contexts:
  - name: prod
    brokers:
      - k1:9093
    sasl:
      mechanism: SCRAM-SHA-512
      username: ops
      password: '****'
    client_id: kgroups
    request_timeout: 10s
    refresh: 5s
    read_only: false
    protected: false
    serve:
      listen: 127.0.0.1:9308
      granularity: group
      max_series: "100000"
  - name: oauth
    brokers:
      - k2:9093
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
`
	if code != 0 || stdout != want {
		t.Fatalf("config view =\n%s\nwant\n%s", stdout, want)
	}
}

func TestConfigViewWithoutSelection(t *testing.T) {
	path := isolateConfig(t)
	writeFile(t, path, "contexts:\n  - name: a\n    brokers: [a:1]\n")
	code, stdout, stderr := runKgroups(t, "config", "view")
	want := "# file: " + path + "\ncontexts:\n  - name: a\n    brokers:\n      - a:1\n    client_id: kgroups\n    request_timeout: 10s\n    refresh: 5s\n    read_only: false\n    protected: false\n    serve:\n      listen: 127.0.0.1:9308\n      granularity: group\n      max_series: \"100000\"\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Fatalf("exit %d\nstdout\n%s\nstderr %q", code, stdout, stderr)
	}
}

func TestConfigContexts(t *testing.T) {
	path := isolateConfig(t)
	writeFile(t, path, `current-context: prod
contexts:
  - name: local
    brokers: [127.0.0.1:9092]
  - name: prod
    brokers: [kafka-1:9093, kafka-2:9093]
    read_only: true
    protected: true
`)
	code, stdout, stderr := runKgroups(t, "config", "contexts")
	want := "" +
		"CURRENT  NAME   BROKERS                    READ-ONLY  PROTECTED\n" +
		"         local  127.0.0.1:9092             false      false\n" +
		"*        prod   kafka-1:9093,kafka-2:9093  true       true\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Fatalf("exit %d stderr %q\n%s\nwant\n%s", code, stderr, stdout, want)
	}

	// --context marks the context that would be used.
	_, stdout, _ = runKgroups(t, "--context", "local", "config", "contexts")
	if !strings.Contains(stdout, "*        local") || strings.Contains(stdout, "*        prod") {
		t.Fatalf("--context local:\n%s", stdout)
	}

	code, stdout, _ = runKgroups(t, "config", "contexts", "-o", "json")
	var got struct {
		Current  string `json:"current"`
		Contexts []struct {
			Name      string   `json:"name"`
			Brokers   []string `json:"brokers"`
			ReadOnly  bool     `json:"readOnly"`
			Protected bool     `json:"protected"`
			Current   bool     `json:"current"`
		} `json:"contexts"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, stdout)
	}
	if got.Current != "prod" || len(got.Contexts) != 2 || got.Contexts[1].Name != "prod" || !got.Contexts[1].Current ||
		!got.Contexts[1].ReadOnly || !got.Contexts[1].Protected || got.Contexts[0].Current || len(got.Contexts[1].Brokers) != 2 {
		t.Fatalf("json = %+v", got)
	}

	code, _, stderr = runKgroups(t, "config", "contexts", "-o", "xml")
	if code != 2 || !strings.HasPrefix(stderr, `kgroups: invalid output format "xml" (accepted: table, json)`) {
		t.Fatalf("-o xml: exit %d stderr %q", code, stderr)
	}
}

func TestConfigContextsNoFile(t *testing.T) {
	path := isolateConfig(t)
	code, stdout, stderr := runKgroups(t, "config", "contexts")
	if code != 0 || stdout != "" || stderr != "kgroups: no contexts defined in "+path+"\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestConfigUse(t *testing.T) {
	path := isolateConfig(t)
	body := "# clusters\ncurrent-context: local\ncontexts:\n  - name: local   # laptop\n    brokers: [127.0.0.1:9092]\n  - name: prod\n    brokers: [k:1]\n"
	writeFile(t, path, body)

	code, stdout, stderr := runKgroups(t, "config", "use", "prod")
	if code != 0 || stdout != fmt.Sprintf("Switched to context \"prod\" in %s.\n", path) || stderr != "" {
		t.Fatalf("use prod: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	data, _ := os.ReadFile(path)
	if string(data) != strings.Replace(body, "current-context: local", "current-context: prod", 1) {
		t.Fatalf("file after use:\n%s", data)
	}
	if c := effective(t); c.Name != "prod" {
		t.Fatalf("effective after use = %q", c.Name)
	}

	code, stdout, stderr = runKgroups(t, "config", "use", "staging")
	if code != 1 || stdout != "" || stderr != `kgroups: config `+path+`: unknown context "staging" (known: local, prod)`+"\n" {
		t.Fatalf("use staging: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(after, data) {
		t.Fatal("a failed use changed the file")
	}

	code, _, stderr = runKgroups(t, "config", "use")
	if code != 2 || !strings.Contains(stderr, "config use needs exactly one context name (got 0 arguments)") {
		t.Fatalf("use with no args: exit %d stderr %q", code, stderr)
	}

	t.Setenv("KGROUPS_CONTEXT", "local")
	code, _, stderr = runKgroups(t, "config", "use", "prod")
	if code != 0 || stderr != "kgroups: note: KGROUPS_CONTEXT=local still overrides current-context\n" {
		t.Fatalf("use under KGROUPS_CONTEXT: exit %d stderr %q", code, stderr)
	}
}

func TestConfigUseNoFile(t *testing.T) {
	path := isolateConfig(t)
	code, _, stderr := runKgroups(t, "config", "use", "prod")
	if code != 1 || stderr != "kgroups: config "+path+": file does not exist\n" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
}

// withConnectCmd registers a command that connects with the effective
// context and lists groups, the way the read commands do.
func withConnectCmd(t *testing.T) {
	t.Helper()
	saved := subcommands
	t.Cleanup(func() { subcommands = saved })
	register(func(a *app) *cobra.Command {
		return &cobra.Command{
			Use: "connect-check",
			RunE: func(cmd *cobra.Command, _ []string) error {
				cl, c, err := a.connect(cmd.Context())
				if err != nil {
					return err
				}
				defer cl.Close()
				groups, err := cl.Admin().ListGroups(cmd.Context())
				if err != nil {
					return err
				}
				_, _ = fmt.Fprintf(a.stdout, "context %s: %d groups via %s\n", c.Name, len(groups), strings.Join(cl.Brokers(), ","))
				return nil
			},
		}
	})
}

func TestConnectWithConfig(t *testing.T) {
	const user, pass, wrong = "svc", "R1ght-secret-pw", "Wr0ng-secret-pw"
	withConnectCmd(t)
	cluster, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.EnableSASL(), kfake.Superuser(config.MechanismScramSHA256, user, pass))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	brokers := cluster.ListenAddrs()

	path := isolateConfig(t)
	writeFile(t, path, fmt.Sprintf(`current-context: secure
contexts:
  - name: secure
    brokers: [%s]
    sasl:
      mechanism: SCRAM-SHA-256
      username: %s
      password_env: KG_TEST_PASSWORD
    request_timeout: 5s
`, strings.Join(brokers, ", "), user))

	t.Setenv("KG_TEST_PASSWORD", pass)
	code, stdout, stderr := runKgroups(t, "connect-check")
	if code != 0 || stdout != fmt.Sprintf("context secure: 0 groups via %s\n", strings.Join(brokers, ",")) {
		t.Fatalf("right password: exit %d stdout %q stderr %q", code, stdout, stderr)
	}

	// The environment's password replaces the file's password_env.
	t.Setenv("KGROUPS_SASL_PASSWORD", wrong)
	code, stdout, stderr = runKgroups(t, "connect-check")
	wantPrefix := fmt.Sprintf(`kgroups: context secure: SASL authentication failed for user "svc" with mechanism SCRAM-SHA-256 (tried %s)`, strings.Join(brokers, ", "))
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, wantPrefix) {
		t.Fatalf("wrong password: exit %d stdout %q stderr %q\nwant prefix %q", code, stdout, stderr, wantPrefix)
	}
	if strings.Contains(stderr, wrong) || strings.Contains(stderr, pass) {
		t.Fatalf("connection error printed a password: %q", stderr)
	}
}

func TestConnectUnreachableAdHoc(t *testing.T) {
	withConnectCmd(t)
	isolateConfig(t)
	code, stdout, stderr := runKgroups(t, "-b", "127.0.0.1:1", "--timeout", "2s", "connect-check")
	want := "kgroups: connection refused by 127.0.0.1:1 (tried 127.0.0.1:1): nothing listens there; check the brokers setting and that Kafka is running\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q\nwant prefix %q", code, stdout, stderr, want)
	}
}

// TestConfigDevNull: --config /dev/null is read (as no contexts) with a
// warning that says what is wrong, and no advice to chmod the device.
func TestConfigDevNull(t *testing.T) {
	isolateConfig(t)
	if _, err := os.Stat(os.DevNull); err != nil || os.DevNull != "/dev/null" {
		t.Skip("no /dev/null")
	}
	code, _, stderr := runKgroups(t, "--config", "/dev/null", "-b", "127.0.0.1:1", "config", "view")
	want := "kgroups: warning: config /dev/null is not a regular file (it is a character device): kgroups read what it gave, but cannot tell who can change that; give the path of a regular file\n"
	if code != 0 || stderr != want || strings.Contains(stderr, "chmod") {
		t.Fatalf("exit %d\nstderr %q\nwant   %q", code, stderr, want)
	}
}
