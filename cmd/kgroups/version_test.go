package main

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// runVersionCmd runs kgroups in-process and returns its exit code and output.
func runVersionCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// setLinkerValues stands in for -ldflags "-X main.version=... " for one test.
func setLinkerValues(t *testing.T, v, c, d string) {
	t.Helper()
	oldV, oldC, oldD := version, commit, date
	version, commit, date = v, c, d
	t.Cleanup(func() { version, commit, date = oldV, oldC, oldD })
}

func TestVersionPrintsLinkerValues(t *testing.T) {
	setLinkerValues(t, "1.4.2", "0123456789abcdef0123456789abcdef01234567", "2026-03-04T05:06:07Z")

	code, stdout, stderr := runVersionCmd(t, "version")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := "kgroups 1.4.2\n" +
		"commit:   0123456789abcdef0123456789abcdef01234567\n" +
		"date:     2026-03-04T05:06:07Z\n" +
		"go:       " + goVersionForTest() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
}

func TestVersionShort(t *testing.T) {
	setLinkerValues(t, "1.4.2", "abc", "2026-03-04T05:06:07Z")

	code, stdout, stderr := runVersionCmd(t, "version", "--short")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "1.4.2\n" {
		t.Errorf("stdout = %q, want %q", stdout, "1.4.2\n")
	}
}

func TestVersionJSON(t *testing.T) {
	setLinkerValues(t, "1.4.2", "abc1234", "2026-03-04T05:06:07Z")

	code, stdout, stderr := runVersionCmd(t, "version", "-o", "json")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout is not a JSON object of strings: %v\n%s", err, stdout)
	}
	want := map[string]string{
		"version":   "1.4.2",
		"commit":    "abc1234",
		"date":      "2026-03-04T05:06:07Z",
		"goVersion": goVersionForTest(),
		"platform":  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if len(got) != len(want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

// Without -ldflags (go test, like go install or go run) every line still has
// a value: the toolchain's, or a placeholder, never an empty string.
func TestVersionWithoutLinkerValues(t *testing.T) {
	setLinkerValues(t, "", "", "")

	code, stdout, stderr := runVersionCmd(t, "version")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	bi, _ := debug.ReadBuildInfo()
	info := resolveBuildInfo("", "", "", bi)
	for _, want := range []string{"kgroups " + info.Version + "\n", "commit:   " + info.Commit + "\n", "date:     " + info.Date + "\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if strings.HasSuffix(line, ":") || strings.HasSuffix(line, " ") || line == "kgroups" {
			t.Errorf("line %q has no value", line)
		}
	}
}

func TestVersionUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"version", "extra"},
		{"version", "-o", "yaml"},
		{"version", "--nope"},
	} {
		code, stdout, stderr := runVersionCmd(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, stderr)
		}
		if stdout != "" {
			t.Errorf("%v: stdout %q, want nothing", args, stdout)
		}
		if !strings.HasPrefix(stderr, "kgroups: ") {
			t.Errorf("%v: stderr %q", args, stderr)
		}
	}
}

func TestResolveBuildInfo(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "89abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name                string
		ldV, ldC, ldD       string
		bi                  *debug.BuildInfo
		wantV, wantC, wantD string
	}{
		{
			name:  "nothing known",
			wantV: "dev", wantC: "none", wantD: "unknown",
		},
		{
			name: "release build: linker values win over the toolchain's",
			ldV:  "1.0.0", ldC: "abc", ldD: "2026-01-01T00:00:00Z",
			bi:    &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2025-12-31T00:00:00Z")},
			wantV: "1.0.0", wantC: "abc", wantD: "2026-01-01T00:00:00Z",
		},
		{
			name:  "go install module@version: a module version and no VCS data",
			bi:    &debug.BuildInfo{Main: debug.Module{Path: "github.com/kgroups/kgroups", Version: "v1.2.3"}},
			wantV: "1.2.3", wantC: "none", wantD: "unknown",
		},
		{
			name:  "go build in a checkout: pseudo-version, revision and commit time",
			bi:    &debug.BuildInfo{Main: debug.Module{Version: "v1.2.4-0.20260102030405-89abcdef0123"}, Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "false")},
			wantV: "1.2.4-0.20260102030405-89abcdef0123", wantC: rev, wantD: "2026-01-02T03:04:05Z",
		},
		{
			name:  "uncommitted changes mark the commit",
			bi:    &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.modified", "true")},
			wantV: "dev", wantC: rev + "-dirty", wantD: "unknown",
		},
		{
			name:  "only the version from the linker; the rest from the toolchain",
			ldV:   "2.0.0",
			bi:    &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-01-02T03:04:05Z")},
			wantV: "2.0.0", wantC: rev, wantD: "2026-01-02T03:04:05Z",
		},
		{
			name: "blank linker values count as unset",
			ldV:  " ", ldC: "", ldD: "\t",
			wantV: "dev", wantC: "none", wantD: "unknown",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := resolveBuildInfo(tt.ldV, tt.ldC, tt.ldD, tt.bi)
			if got.Version != tt.wantV || got.Commit != tt.wantC || got.Date != tt.wantD {
				t.Errorf("got version=%q commit=%q date=%q, want %q %q %q", got.Version, got.Commit, got.Date, tt.wantV, tt.wantC, tt.wantD)
			}
			if got.Platform != runtime.GOOS+"/"+runtime.GOARCH {
				t.Errorf("platform = %q", got.Platform)
			}
			if got.GoVersion == "" {
				t.Error("empty Go version")
			}
		})
	}
}

// goVersionForTest is the Go version the test binary reports, as version does.
func goVersionForTest() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.GoVersion != "" {
		return bi.GoVersion
	}
	return runtime.Version()
}

// TestRootVersionFlag: kgroups --version prints what kgroups version
// prints, and connects to nothing.
func TestRootVersionFlag(t *testing.T) {
	setLinkerValues(t, "1.4.2", "abc1234", "2026-03-04T05:06:07Z")
	t.Setenv("KGROUPS_BROKERS", "127.0.0.1:1")

	code, want, stderr := runVersionCmd(t, "version")
	if code != exitOK || stderr != "" {
		t.Fatalf("version: exit %d, stderr %q", code, stderr)
	}
	code, got, stderr := runVersionCmd(t, "--version")
	if code != exitOK || stderr != "" {
		t.Fatalf("--version: exit %d, stderr %q", code, stderr)
	}
	if got != want {
		t.Errorf("kgroups --version:\n%s\nkgroups version:\n%s", got, want)
	}
	if !strings.HasPrefix(got, "kgroups 1.4.2\ncommit:   abc1234\n") {
		t.Errorf("kgroups --version = %q", got)
	}
	// Only the root has it, as with gh.
	code, _, stderr = runVersionCmd(t, "list", "--version")
	if code != exitUsage || !strings.Contains(stderr, "unknown flag: --version") {
		t.Errorf("list --version: exit %d, stderr %q", code, stderr)
	}
}
