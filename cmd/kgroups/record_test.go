package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/recording"
)

// TestRecordThenReadFrom records a kfake cluster (3 brokers, real
// members of every kind) for three polls, then reads the file back: the
// describe views of the recording's last poll print exactly what describe
// prints live on the cluster, which did not change meanwhile, and health
// --from gives each group's verdict timeline.
func TestRecordThenReadFrom(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a kfake cluster")
	}
	c := startReadCluster(t)
	file := filepath.Join(t.TempDir(), "run.kgrec")
	code, stdout, stderr := c.kg(t, "--refresh", "1s", "record", "--all-groups", "-o", file, "--for", "2s")
	if code != 0 || stdout != "" {
		t.Fatalf("record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	want := "kgroups record: recording all groups every 1s to " + file + "\n"
	if !strings.HasPrefix(stderr, want) || !regexp.MustCompile(`\nkgroups record: 3 polls \(0 failed\), [0-9.]+ KiB in `+regexp.QuoteMeta(file)+"\n$").MatchString(stderr) {
		t.Fatalf("record's stderr:\n%s", stderr)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the recording: %v, mode %v; want 0600", err, st.Mode())
	}
	rec, err := recording.Load(file)
	if err != nil || len(rec.Polls) != 3 || rec.Torn != nil || rec.Header.Refresh.String() != "1s" {
		t.Fatalf("the recording reads back as %d polls, torn %v, header %+v: %v", len(rec.Polls), rec.Torn, rec.Header, err)
	}

	for _, view := range [][]string{{}, {"--members"}, {"--state"}, {"--members", "--verbose"}, {"-o", "json"}} {
		args := append([]string{"describe", "--all-groups"}, view...)
		lcode, live, lerr := c.kg(t, args...)
		rcode, replay, rerr := kg(t, append(args, "--from", file)...)
		if lcode != rcode || live != replay || lerr != rerr {
			t.Errorf("describe %v: live exit %d, --from exit %d\n--- live ---\n%s%s--- from the recording ---\n%s%s", view, lcode, rcode, live, lerr, replay, rerr)
		}
	}

	// simulate predicts from the recorded group as from the live one.
	for _, args := range [][]string{{"simulate", groupRange, "--join", "1"}, {"simulate", group848, "--join", "1", "-o", "json"}, {"simulate", groupCoop, "--leave", "coop-a"}} {
		lcode, live, lerr := c.kg(t, args...)
		rcode, replay, rerr := kg(t, append(args, "--from", file)...)
		if lcode != rcode || live != replay || lerr != rerr || lcode != 0 {
			t.Errorf("%v: live exit %d, --from exit %d\n--- live ---\n%s%s--- from the recording ---\n%s%s", args, lcode, rcode, live, lerr, replay, rerr)
		}
	}

	// Three polls within 2s: every group is still judging; one row each.
	code, stdout, stderr = kg(t, "health", "--from", file)
	if code != 0 || stderr != "" {
		t.Fatalf("health --from: exit %d, stderr %q", code, stderr)
	}
	rows := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(rows) != 6 || !strings.HasPrefix(rows[0], "TIME ") {
		t.Fatalf("health --from: %d rows\n%s", len(rows), stdout)
	}
	first := rec.Polls[0].Time.UTC().Format("2006-01-02T15:04:05Z")
	for i, g := range []string{group848, groupCoop, groupIdle, groupRange, groupRR} {
		if !strings.HasPrefix(rows[i+1], first+"  "+g+" ") || !strings.Contains(rows[i+1], "JUDGING 1/10") {
			t.Errorf("row %d: %q, want %s at %s judging", i+1, rows[i+1], g, first)
		}
	}
	// --at before the start, and a time that does not parse.
	code, _, stderr = kg(t, "health", "--from", file, "--at", "-1h")
	if code != 2 || !strings.Contains(stderr, "--at -1h is before the recording's first poll: it spans ") {
		t.Errorf("--at -1h: exit %d, %q", code, stderr)
	}
}

func TestRecordUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	exists := filepath.Join(dir, "old.kgrec")
	if err := os.WriteFile(exists, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	const help = "Run 'kgroups record --help' for usage.\n"
	out := filepath.Join(dir, "new.kgrec")
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"record", "-o", out}, "kgroups: record needs one or more group names, or --all-groups\n"},
		{[]string{"record", "g", "--all-groups", "-o", out}, "kgroups: give either group names or --all-groups, not both\n"},
		{[]string{"record", "g"}, "kgroups: record needs -o FILE: the recording to create\n"},
		{[]string{"record", "g", "-o", exists}, "kgroups: " + exists + " already exists: kgroups never writes over a recording; give another file name\n"},
		{[]string{"record", "g", "-o", filepath.Join(dir, "no", "x.kgrec")}, "kgroups: cannot create " + filepath.Join(dir, "no", "x.kgrec") + ": its folder " + filepath.Join(dir, "no") + " does not exist\n"},
		{[]string{"record", "g", "-o", out, "--for", "-1s"}, "kgroups: invalid --for -1s: it must be above zero (or left out to record until interrupted)\n"},
		{[]string{"record", "g", "-o", out, "--rotate-size", "lots"}, "kgroups: invalid --rotate-size \"lots\": give a size above zero such as 500KB, 100MB, 2GiB\n"},
		{[]string{"record", "g", "-o", out, "--rotate-size", "0MB"}, "kgroups: invalid --rotate-size \"0MB\": give a size above zero such as 500KB, 100MB, 2GiB\n"},
	} {
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, tc.args...)...)
		if code != 2 || stdout != "" || stderr != tc.stderr+help {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr+help)
		}
	}
	if b, err := os.ReadFile(exists); err != nil || string(b) != "keep" {
		t.Errorf("the existing file changed: %q, %v", b, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused record created %s: %v", out, err)
	}
}

func TestFromRefusesWhatItCannotRead(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	var buf bytes.Buffer
	if _, err := recording.NewWriter(&buf, recording.Header{}); err != nil {
		t.Fatal(err)
	}
	newer := append([]byte(nil), buf.Bytes()...)
	i := bytes.IndexByte(newer, '\n') + 1
	newer[i], newer[i+1] = 0, 7
	for name, b := range map[string][]byte{"newer.kgrec": newer, "empty.kgrec": buf.Bytes(), "text.kgrec": []byte("hello\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"health", "--from", filepath.Join(dir, "newer.kgrec")}, 1, "kgroups: " + filepath.Join(dir, "newer.kgrec") + ": recording format version 7 is a newer format than this kgroups reads (it reads version 1): open it with the kgroups that wrote it\n"},
		{[]string{"describe", "g", "--from", filepath.Join(dir, "empty.kgrec")}, 1, "kgroups: " + filepath.Join(dir, "empty.kgrec") + " holds no whole poll yet\n"},
		{[]string{"health", "--from", filepath.Join(dir, "text.kgrec")}, 1, "kgroups: read recording " + filepath.Join(dir, "text.kgrec") + ": not a kgroups recording (it does not start as one)\n"},
		{[]string{"health", "--from", filepath.Join(dir, "none.kgrec")}, 1, "kgroups: no recording at " + filepath.Join(dir, "none.kgrec") + ": give a file written by kgroups record\n"},
		{[]string{"replay", filepath.Join(dir, "none.kgrec")}, 1, "kgroups: no recording at " + filepath.Join(dir, "none.kgrec") + ": give a file written by kgroups record\n"},
		{[]string{"replay", filepath.Join(dir, "empty.kgrec"), "--at", "+1m"}, 1, "kgroups: " + filepath.Join(dir, "empty.kgrec") + " holds no whole poll yet\n"},
		{[]string{"describe", "g", "--at", "+1m"}, 2, "kgroups: --at picks a poll of a recording: give --from FILE with it\nRun 'kgroups describe --help' for usage.\n"},
		{[]string{"health", "--from", filepath.Join(dir, "newer.kgrec"), "--interval", "1s"}, 2, "kgroups: --interval paces live polls: a recording's polls are as recorded; leave it out with --from\nRun 'kgroups health --help' for usage.\n"},
	} {
		code, stdout, stderr := kg(t, tc.args...)
		if code != tc.code || stdout != "" || stderr != tc.stderr {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.stderr)
		}
	}
}

// TestRedactCommand: redact writes a copy with pseudonyms whose verdict
// timeline is the original's, name for name; it never writes over a file.
func TestRedactCommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.kgrec"), filepath.Join(dir, "out.kgrec")
	writeFixtureRecording(t, in, 14, nil)
	code, stdout, stderr := kg(t, "redact", in, out)
	want := "kgroups redact: 14 polls, "
	if code != 0 || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.HasSuffix(stderr, " KiB in "+out+"; replaced 8 clients, 8 groups, 15 hosts, 3 instances, 12 members, 3 racks, 8 topics\n") {
		t.Fatalf("redact: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	_, orig, _ := kg(t, "health", "--from", in)
	_, red, _ := kg(t, "health", "--from", out)
	if strings.Contains(red, "orders-app") || strings.Count(red, "\n") != strings.Count(orig, "\n") {
		t.Fatalf("the redacted timeline:\n%s\nthe original:\n%s", red, orig)
	}
	// The same statuses, the same numbers, in the same order of time.
	strip := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			f := strings.Fields(l)
			if len(f) > 2 {
				out = append(out, f[0]+" "+strings.Join(f[2:], " "))
			}
		}
		slices.Sort(out)
		return out
	}
	if a, b := strip(orig), strip(red); !slices.Equal(a, b) {
		t.Errorf("the timelines differ but for the names:\n%q\n%q", a, b)
	}
	code, _, stderr = kg(t, "redact", in, out)
	if code != 2 || stderr != "kgroups: "+out+" already exists: kgroups never writes over a recording; give another file name\nRun 'kgroups redact --help' for usage.\n" {
		t.Errorf("redact over a file: exit %d, %q", code, stderr)
	}
}

// TestDiagnoseFrom: diagnose --from applies the rules to a recording's
// polls as of its last poll (or --at), says which reads a recording
// lacks, and keeps diagnose's exit codes.
func TestDiagnoseFrom(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "fix.kgrec")
	writeFixtureRecording(t, file, 14, nil)
	const note = "kgroups: note: a recording holds the polls only: producers, transactions, retention.ms and the records at stalled commits were not recorded, so the findings that need them are not made\n"
	code, stdout, stderr := kg(t, "diagnose", "--from", file, "fraud-scoring", "orders-app", "--wide")
	if code != 0 || stderr != note {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var ids []string
	for _, l := range strings.Split(stdout, "\n")[1:] {
		if f := strings.Fields(l); len(f) > 3 {
			ids = append(ids, f[0]+" "+f[1]+" "+f[2])
		}
	}
	want := []string{"fraud-scoring ERR member-not-committing", "fraud-scoring ERR stalled-at-record", "orders-app WARN no-commits"}
	if !slices.Equal(ids, want) {
		t.Errorf("findings %q, want %q\n%s", ids, want, stdout)
	}
	code, _, _ = kg(t, "diagnose", "--from", file, "fraud-scoring", "--fail-on", "ERR")
	if code != 3 {
		t.Errorf("--fail-on ERR: exit %d, want 3", code)
	}
	// At the first poll nothing is judged yet.
	code, stdout, _ = kg(t, "diagnose", "--from", file, "fraud-scoring", "--at", "+0s")
	if code != 0 || !strings.Contains(stdout, "fraud-scoring: no findings yet: judging 1/10") {
		t.Errorf("--at +0s: exit %d\n%s", code, stdout)
	}
}

// TestFromHostileRecording: names a consumer chose reach the terminal
// sanitised from a recording as from a live poll, and JSON keeps their
// exact bytes.
func TestFromHostileRecording(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "evil.kgrec")
	const evil = "evil\x1b]0;pwned\x07\x1b[2J\xff"
	writeFixtureRecording(t, file, 3, func(s *kafka.Snapshot) {
		g := &s.Groups[len(s.Groups)-1]
		g.Name = "zz-" + evil
		g.Members = append([]kafka.Member(nil), g.Members...)
		g.Members[0].ClientID = "client\r\n" + evil
	})
	for _, args := range [][]string{
		{"health", "--from", file},
		{"health", "--from", file, "--at", "+5s"},
		{"describe", "--all-groups", "--from", file},
		{"describe", "--all-groups", "--members", "--from", file},
		{"diagnose", "--from", file},
	} {
		_, stdout, stderr := kg(t, args...)
		for _, c := range []byte{0x1b, 0x07, '\r', 0xff} {
			if strings.IndexByte(stdout+stderr, c) >= 0 {
				t.Errorf("%v lets byte %#x through:\n%q\n%q", args, c, stdout, stderr)
			}
		}
		if !strings.Contains(stdout, "zz-evil") {
			t.Errorf("%v does not show the group:\n%s", args, stdout)
		}
	}
	_, stdout, _ := kg(t, "describe", "--all-groups", "--from", file, "-o", "json")
	if !strings.Contains(stdout, `"groupBase64": "`+base64.StdEncoding.EncodeToString([]byte("zz-"+evil))+`"`) {
		t.Errorf("the JSON does not keep the name's bytes:\n%s", stdout)
	}
}

// writeFixtureRecording records polls polls of the evolving fixture to
// file, each changed by change first when it is not nil.
func writeFixtureRecording(t *testing.T, file string, polls int, change func(*kafka.Snapshot)) {
	t.Helper()
	f, err := recording.Create(file, recording.Header{Refresh: fixture.PollEvery, Cluster: []string{"kafka-1.internal:9092"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range polls {
		s := fixture.Evolving(i)
		if change != nil {
			change(s)
		}
		if err := f.Write(recording.Poll{Time: s.Time, Snapshot: s}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
