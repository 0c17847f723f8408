package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

func TestDiagnoseUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const help = "Run 'kgroups diagnose --help' for usage.\n"
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"diagnose"}, "kgroups: diagnose needs one or more group names, or --all-groups\n"},
		{[]string{"diagnose", "g", "--fail-on", "info"}, "kgroups: invalid --fail-on \"info\": accepted values are WARN, ERR (any case)\n"},
		{[]string{"diagnose", "g", "--storm", "0"}, "kgroups: invalid --storm 0: it must be 1 or more\n"},
		{[]string{"diagnose", "g", "-o", "csv"}, "kgroups: invalid --output \"csv\": accepted values are table, json\n"},
	} {
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, tc.args...)...)
		if code != 2 || stdout != "" || stderr != tc.stderr+help {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr+help)
		}
	}
}

// TestDiagnoseCommand runs the command on a cluster where retention
// deleted records an Empty group never read, next to a healthy group:
// JSON and table output exactly, and exit 3 for --fail-on ERR.
func TestDiagnoseCommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "lost", 1)
	c.CreateTopic(t, "fine", 1)
	c.Produce(t, "lost", 0, 10, zeroTime)
	c.Produce(t, "fine", 0, 4, zeroTime)
	c.Commit(t, "g-lost", map[string]map[int32]int64{"lost": {0: 3}})
	c.Commit(t, "g-fine", map[string]map[int32]int64{"fine": {0: 4}})
	del := make(kadm.Offsets)
	del.AddOffset("lost", 0, 7, -1)
	if resp, err := c.Admin().DeleteRecords(context.Background(), del); err != nil || resp.Error() != nil {
		t.Fatalf("delete records: %v", err)
	}
	b := strings.Join(c.Addrs, ",")
	msg := "committed offset 3 is below the log start 7: 4 records were deleted unread; it restarts at 7 (earliest) or 10 (latest)"

	code, stdout, stderr := kg(t, "-b", b, "diagnose", "g-lost", "g-fine", "--window", "200ms", "--interval", "100ms", "-o", "json", "--fail-on", "ERR")
	// g-lost lags and its 3 polls, 100ms apart, make 1 commit observation
	// of the 3 a trend needs: "judging" says the trend rules have not
	// judged it yet. g-fine has no lag: nothing waits.
	want := `{"groups":[{"group":"g-lost","judging":{"observations":1,"window":3},"findings":[{"id":"records-lost-to-retention","severity":"ERR","topic":"lost","partition":0,"message":"` + msg + `",` +
		`"evidence":{"committedOffset":3,"logStartOffset":7,"logEndOffset":10,"recordsLost":4,"restartEarliest":7,"restartLatest":10},` +
		`"next":"kgroups -b ` + b + ` reset g-lost --to-earliest --topic lost:0"}]},{"group":"g-fine","judging":null,"findings":[]}]}` + "\n"
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(stdout)); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	if code != 3 || compact.String()+"\n" != want || stderr != "kgroups: 1 group with findings at or above ERR: g-lost (ERR)\n" {
		t.Errorf("json: exit %d\nstdout %s\nwant   %s\nstderr %q", code, stdout, want, stderr)
	}

	code, stdout, stderr = kg(t, "-b", b, "diagnose", "g-lost", "g-fine", "--window", "200ms", "--interval", "100ms")
	wantTable := lines(
		"GROUP   SEVERITY  FINDING                    WHERE   MESSAGE"+sp(len(msg)-7)+"  NEXT",
		"g-lost  ERR       records-lost-to-retention  lost:0  "+msg+"  kgroups -b "+b+" reset g-lost --to-earliest --topic lost:0",
		"g-fine: no findings",
	)
	if code != 0 || stdout != wantTable || stderr != "" {
		t.Errorf("table: exit %d\n%s\nwant\n%s\nstderr %q", code, stdout, wantTable, stderr)
	}
}
