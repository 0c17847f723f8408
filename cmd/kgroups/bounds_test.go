package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Values out of range exit 2 when given as flags and say what is accepted;
// the same values from the environment or the file exit 1.
func TestOutOfRangeSettings(t *testing.T) {
	const help = "\nRun 'kgroups config view --help' for usage.\n"
	long := strings.Repeat("x", 40000)
	tests := []struct {
		name   string
		file   string
		env    map[string]string
		args   []string
		code   int
		stderr string // FILE is replaced by the config path
	}{
		{name: "--timeout 1ns", args: []string{"-b", "k:1", "--timeout", "1ns"}, code: 2,
			stderr: "kgroups: --timeout: 1ns is too short: the request timeout must be at least 100ms" + help},
		{name: "--timeout 1h", args: []string{"-b", "k:1", "--timeout", "1h"}, code: 2,
			stderr: "kgroups: --timeout: 1h0m0s is too long: the request timeout must be at most 15m" + help},
		{name: "--client-id of 40000 bytes", args: []string{"-b", "k:1", "--client-id", long}, code: 2,
			stderr: "kgroups: --client-id: 40000 bytes is too long: a client id is at most 256 bytes" + help},
		{name: "KGROUPS_TIMEOUT=1ns", env: map[string]string{"KGROUPS_TIMEOUT": "1ns"}, args: []string{"-b", "k:1"}, code: 1,
			stderr: "kgroups: KGROUPS_TIMEOUT: 1ns is too short: the request timeout must be at least 100ms\n"},
		{name: "KGROUPS_CLIENT_ID too long", env: map[string]string{"KGROUPS_CLIENT_ID": long}, args: []string{"-b", "k:1"}, code: 1,
			stderr: "kgroups: KGROUPS_CLIENT_ID: 40000 bytes is too long: a client id is at most 256 bytes\n"},
		{name: "--refresh 1ns", args: []string{"-b", "k:1", "--refresh", "1ns"}, code: 2,
			stderr: "kgroups: --refresh: 1ns is too short: the refresh must be at least 1s (each refresh polls every broker), for example 5s" + help},
		{name: "--refresh 999ms", args: []string{"-b", "k:1", "--refresh", "999ms"}, code: 2,
			stderr: "kgroups: --refresh: 999ms is too short: the refresh must be at least 1s (each refresh polls every broker), for example 5s" + help},
		{name: "KGROUPS_REFRESH=10ms", env: map[string]string{"KGROUPS_REFRESH": "10ms"}, args: []string{"-b", "k:1"}, code: 1,
			stderr: "kgroups: KGROUPS_REFRESH: 10ms is too short: the refresh must be at least 1s (each refresh polls every broker), for example 5s\n"},
		{name: "refresh in the file", file: "current-context: p\ncontexts:\n  - name: p\n    brokers: [k:1]\n    refresh: 1ns\n", code: 1,
			stderr: "kgroups: config FILE: contexts[p].refresh: 1ns is too short: the refresh must be at least 1s (each refresh polls every broker), for example 5s\n"},
		{name: "request_timeout in the file", file: "current-context: p\ncontexts:\n  - name: p\n    brokers: [k:1]\n    request_timeout: 1ns\n", code: 1,
			stderr: "kgroups: config FILE: contexts[p].request_timeout: 1ns is too short: the request timeout must be at least 100ms\n"},
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
			code, stdout, stderr := runKgroups(t, append(tt.args, "config", "view")...)
			want := strings.ReplaceAll(tt.stderr, "FILE", path)
			if code != tt.code || stdout != "" || stderr != want {
				t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant exit %d, stderr %q", code, stdout, stderr, tt.code, want)
			}
		})
	}
}

func TestToDatetimeBeforeTheEpochIsAUsageError(t *testing.T) {
	isolateConfig(t)
	code, _, stderr := runKgroups(t, "-b", "k:1", "reset", "g", "--to-datetime", "0001-01-01T00:00:00.000", "--all-topics")
	want := `kgroups: --to-datetime: invalid datetime "0001-01-01T00:00:00.000": it must not be before 1970-01-01T00:00:00Z (Kafka timestamps are Unix milliseconds); `
	if code != exitUsage || !strings.HasPrefix(stderr, want) {
		t.Fatalf("exit %d, stderr %q\nwant exit 2 and %q...", code, stderr, want)
	}
}

// An offsets file over 256 MiB is refused before anything connects.
func TestResetFromFileOverTheCap(t *testing.T) {
	isolateConfig(t)
	path := filepath.Join(t.TempDir(), "huge.csv")
	writeFile(t, path, "orders,0,1\n")
	if err := os.Truncate(path, 256<<20+1); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runKgroups(t, "-b", "k:1", "reset", "g", "--from-file", path)
	want := "kgroups: --from-file: offsets file " + path + " is larger than 256 MiB, the most kgroups reads from one: split it into files of fewer partitions, or check that it is an offsets file\nRun 'kgroups reset --help' for usage.\n"
	if code != exitUsage || stderr != want {
		t.Fatalf("exit %d, stderr %q\nwant exit 2 and %q", code, stderr, want)
	}
}

// A spreadsheet export starts with a byte-order mark; it is imported like
// any other offsets file.
func TestResetFromFileWithByteOrderMark(t *testing.T) {
	rc := startResetCluster(t)
	file := filepath.Join(t.TempDir(), "export.csv")
	writeFile(t, file, "\ufefforders,0,3\r\norders,1,4\r\n")
	code, _, stderr := rc.kg(t, "reset", "g", "--from-file", file, "--execute")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 3, "orders/1": 4})
}

// A file of 100,000 rows naming partitions that do not exist gives 20 of
// them, then the count of the rest.
func TestResetFromFileErrorsAreCapped(t *testing.T) {
	rc := startResetCluster(t)
	var b strings.Builder
	for i := range 100_000 {
		b.WriteString("orders," + strconv.Itoa(100+i) + ",1\n")
	}
	file := filepath.Join(t.TempDir(), "bad.csv")
	writeFile(t, file, b.String())
	code, stdout, stderr := rc.kg(t, "reset", "g", "--from-file", file)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != exitError || stdout != "" || len(lines) != 21 {
		t.Fatalf("exit %d, %d lines of stderr, want exit 1 and 21 lines:\n%.2000s", code, len(lines), stderr)
	}
	if want := `kgroups: line 1: topic "orders" has 3 partitions (0-2); partition 100 does not exist`; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if want := "and 99980 more"; lines[20] != want {
		t.Errorf("last line %q, want %q", lines[20], want)
	}
	rc.assertCommits(t, "g", initialCommits)
}

// undo refuses a receipt edited after it was written, and --force uses it
// with a warning naming the mismatch.
func TestUndoRefusesAnEditedReceipt(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--shift-by", "-3", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := receiptPath(t, stderr)
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rc.Commit(t, "other", map[string]map[int32]int64{"orders": {0: 7}})
	writeFile(t, path, strings.Replace(string(body), `"group": "g"`, `"group": "other"`, 1))

	code, stdout, stderr := rc.kg(t, "undo", path)
	if code != exitError || stdout != "" || !strings.Contains(stderr, "kgroups: receipt "+path+": its checksum does not match its contents") ||
		!strings.Contains(stderr, "add --force to use it anyway") {
		t.Fatalf("undo of an edited receipt: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}

	code, stdout, stderr = rc.kg(t, "undo", path, "--force")
	if code != 0 || !strings.Contains(stdout, "other") ||
		!strings.Contains(stderr, "Warning: receipt "+path+": its checksum does not match its contents (recorded sha256:") ||
		!strings.Contains(stderr, "going ahead because of --force") {
		t.Fatalf("undo --force: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

// A receipt from before checksums is undone, with a note.
func TestUndoOldReceiptNotes(t *testing.T) {
	rc := startResetCluster(t)
	path := writeReceipt(t)
	notes := "Note: receipt " + path + ": no checksum (written by an older kgroups)\n" +
		"Warning: receipt " + path + ": it is unsigned: not written by your kgroups (another user's, a kgroups before signed receipts, or made by hand)\n"
	// It records other brokers and no cluster id: refused, then used
	// with --force.
	code, _, stderr := rc.kg(t, "undo", path)
	want := notes + "kgroups: receipt " + path + " was written for another cluster: it records brokers x:1, this connection's are " + rc.brokers + ". Nothing was changed; connect to the cluster it was written for (-b or --context), or add --force if this is that cluster\n"
	if code != 1 || stderr != want {
		t.Fatalf("exit %d, stderr\n%s\nwant\n%s", code, stderr, want)
	}
	code, _, stderr = rc.kg(t, "undo", path, "--force")
	if code != 0 || !strings.HasPrefix(stderr, notes+"Warning: receipt "+path+" was written for another cluster (it records brokers x:1, this connection's are "+rc.brokers+"); going ahead because of --force\n") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
}
