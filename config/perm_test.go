//go:build unix

package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestPermissionWarnings: a configuration file or directory others can
// write, or a file others can read while it holds an inline secret, is
// warned about; a private file, or a directory with the sticky bit, is not.
func TestPermissionWarnings(t *testing.T) {
	const plain = "contexts:\n  - name: p\n    brokers: [k:1]\n    sasl: {mechanism: PLAIN, username: u, password_cmd: pass}\n"
	const inline = "contexts:\n  - name: p\n    brokers: [k:1]\n    sasl: {mechanism: PLAIN, username: u, password: hunter2}\n"
	const token = "contexts:\n  - name: p\n    brokers: [k:1]\n    sasl: {mechanism: OAUTHBEARER, token: tok}\n"
	for _, tc := range []struct {
		name      string
		body      string
		file, dir os.FileMode
		want      []string // substrings, one per warning, in order
	}{
		{"private", inline, 0o600, 0o700, nil},
		{"readable without a secret", plain, 0o644, 0o755, nil},
		{"group-writable file", plain, 0o664, 0o700, []string{"can be written by its group (mode 0664)"}},
		{"world-writable file", plain, 0o606, 0o700, []string{"can be written by others (mode 0606)"}},
		{"readable with a password", inline, 0o640, 0o700, []string{"holds an inline password or token and can be read by its group (mode 0640)"}},
		{"readable with a token", token, 0o604, 0o700, []string{"can be read by others (mode 0604)"}},
		{"both", inline, 0o666, 0o700, []string{"can be written by its group and others (mode 0666)", "can be read by its group and others (mode 0666)"}},
		{"writable directory", plain, 0o600, 0o777, []string{"can be written by its group and others (mode 0777): they could replace the file"}},
		{"group-writable directory", plain, 0o600, 0o770, []string{"can be written by its group (mode 0770): they could replace the file"}},
		{"sticky directory", plain, 0o600, 0o777 | os.ModeSticky, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "kgroups")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.file); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tc.dir); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
			cfg, err := Load(path, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Warnings) != len(tc.want) {
				t.Fatalf("warnings %q, want %d like %q", cfg.Warnings, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if got := cfg.Warnings[i]; !strings.Contains(got, w) || !strings.Contains(got, path) {
					t.Errorf("warning %d = %q, want it to name %s and say %q", i, got, path, w)
				}
				if strings.Contains(cfg.Warnings[i], "hunter2") {
					t.Errorf("a warning shows the secret: %q", cfg.Warnings[i])
				}
			}
		})
	}
}

// TestPermissionWarningsDeviceFile: --config /dev/null (or any file that
// is not a regular file) gets no chmod advice, which would change the
// device for everyone, but a warning that says what is wrong.
func TestPermissionWarningsDeviceFile(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	cfg, err := Load(os.DevNull, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"config /dev/null is not a regular file (it is a character device): kgroups read what it gave, but cannot tell who can change that; give the path of a regular file"}
	if !reflect.DeepEqual(cfg.Warnings, want) {
		t.Fatalf("warnings = %q\nwant %q", cfg.Warnings, want)
	}
}
