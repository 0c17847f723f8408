package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPasswordCmdRefusedFromAFileOthersCanChange: a password_cmd runs
// only from a configuration file no one else can change: not from one
// mode 0666, nor from a private file in a folder others can write
// (without the sticky bit). The refusal says what is wrong and the chmod
// that fixes it, and the command does not run. A private file in a
// sticky folder, or once fixed, runs it.
func TestPasswordCmdRefusedFromAFileOthersCanChange(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no modes")
	}
	isolateConfig(t)
	for _, tc := range []struct {
		name              string
		fileMode, dirMode os.FileMode
		refused, warnings func(path, dir string) string
		runs              bool
	}{
		{name: "file 0666", fileMode: 0o666, dirMode: 0o700,
			warnings: func(path, _ string) string {
				return "kgroups: warning: config " + path + " can be written by its group and others (mode 0666): they could change what kgroups runs and where it connects; chmod 600 " + path + "\n"
			},
			refused: func(path, _ string) string {
				return "kgroups: context p: connect: sasl.password_cmd: refused to run: config " + path + " can be written by its group and others (mode 0666), who could change the command; fix with: chmod go-w " + path + "\n"
			}},
		{name: "file 0620", fileMode: 0o620, dirMode: 0o700,
			warnings: func(path, _ string) string {
				return "kgroups: warning: config " + path + " can be written by its group (mode 0620): they could change what kgroups runs and where it connects; chmod 600 " + path + "\n"
			},
			refused: func(path, _ string) string {
				return "kgroups: context p: connect: sasl.password_cmd: refused to run: config " + path + " can be written by its group (mode 0620), who could change the command; fix with: chmod go-w " + path + "\n"
			}},
		{name: "file 0600 in a folder 0777", fileMode: 0o600, dirMode: 0o777,
			warnings: func(path, dir string) string {
				return "kgroups: warning: the directory " + dir + " of config " + path + " can be written by its group and others (mode 0777): they could replace the file; chmod 700 " + dir + "\n"
			},
			refused: func(path, dir string) string {
				return "kgroups: context p: connect: sasl.password_cmd: refused to run: the folder " + dir + " of config " + path + " can be written by its group and others (mode 0777), who could replace the file; fix with: chmod go-w " + dir + "\n"
			}},
		{name: "file 0600 in a sticky folder 1777", fileMode: 0o600, dirMode: 0o1777 | os.ModeSticky, runs: true},
		{name: "file 0600 in a folder 0700", fileMode: 0o600, dirMode: 0o700, runs: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cfg")
			marker := filepath.Join(t.TempDir(), "ran")
			path := filepath.Join(dir, "config.yaml")
			writeFile(t, path, "current-context: p\ncontexts:\n  - name: p\n    brokers: [127.0.0.1:1]\n    sasl: {mechanism: PLAIN, username: u, password_cmd: \"touch "+marker+"; echo pw\"}\n")
			if err := os.Chmod(path, tc.fileMode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tc.dirMode); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
			code, stdout, stderr := runKgroups(t, "--config", path, "--timeout", "1s", "list")
			_, statErr := os.Stat(marker)
			if ran := statErr == nil; ran != tc.runs {
				t.Fatalf("the command ran: %v, want %v (exit %d: %s)", ran, tc.runs, code, stderr)
			}
			if tc.runs {
				return
			}
			want := tc.warnings(path, dir) + tc.refused(path, dir)
			if code != 1 || stdout != "" || stderr != want {
				t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
			}
			// Fixed as the message says, the command runs.
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			runKgroups(t, "--config", path, "--timeout", "1s", "list")
			if _, err := os.Stat(marker); err != nil {
				t.Fatalf("after chmod go-w, the command did not run: %v", err)
			}
		})
	}
}
