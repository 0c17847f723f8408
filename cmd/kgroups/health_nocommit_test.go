package main

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestHealthNoCommits: `kgroups health --all-groups` on a cluster whose
// only group has a real kgo member that consumes with auto-commit off and
// never commits. It is not OK: a live member has owned both partitions
// for the whole window without a commit, so the group is WARN NO-COMMITS,
// its lag unknown (not 0), and --fail-on WARN exits 3.
func TestHealthNoCommits(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_CTYPE", "")
	t.Setenv("LANG", "C.UTF-8")
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "audit", 2)
	c.Produce(t, "audit", 0, 7, zeroTime)
	c.Produce(t, "audit", 1, 3, zeroTime)
	c.Join(t, "audit-nocommit", []string{"audit"})
	c.WaitStable(t, "audit-nocommit", 1, 2)

	// 11 polls 200ms apart: a full window of 10 observations.
	code, stdout, stderr := kg(t, "-b", strings.Join(c.Addrs, ","), "health", "--all-groups", "--window", "2s", "--interval", "200ms", "--fail-on", "WARN")
	expectRun(t, code, stderr, 3, "kgroups: 1 group at or above WARN: audit-nocommit (NO-COMMITS)\n")
	expectText(t, "stdout", stdout, lines(
		"GROUP           STATUS           TOTAL-LAG  MAX-TIME-LAG  PRODUCE/S  CONSUME/S",
		"audit-nocommit  WARN NO-COMMITS          -             -        0.0          -",
		"",
		"GROUP           TOPIC  PARTITION  STATUS      CURRENT-OFFSET  LOG-END-OFFSET  LAG  TIME-LAG  REWIND",
		"audit-nocommit  audit          0  NO-COMMITS               -               7    -         -  -",
		"audit-nocommit  audit          1  NO-COMMITS               -               3    -         -  -",
	))

	// Without --fail-on the verdict is the same and the exit is 0.
	code, stdout, stderr = kg(t, "-b", strings.Join(c.Addrs, ","), "health", "audit-nocommit", "--window", "2s", "--interval", "200ms", "-o", "json")
	expectRun(t, code, stderr, 0, "")
	if !strings.Contains(stdout, `"verdict": "WARN NO-COMMITS"`) || !strings.Contains(stdout, `"judging": null`) || !strings.Contains(stdout, `"totalLag": null`) {
		t.Errorf("json:\n%s", stdout)
	}
}
