package main

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/diagnose"
)

// TestHelpNamesEveryFinding: `kgroups diagnose --help` lists every
// finding, and `kgroups health --help` every short cause its CAUSE column
// can show, so that the help cannot lag the rules.
func TestHelpNamesEveryFinding(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	_, diag, _ := kg(t, "diagnose", "--help")
	_, health, _ := kg(t, "health", "--help")
	diag, health = oneLine(diag), oneLine(health)
	for _, id := range diagnose.IDs {
		if !strings.Contains(diag, " "+id+" ") {
			t.Errorf("kgroups diagnose --help does not list the finding %s", id)
		}
		if c := diagnose.Cause(id); c != "" && !strings.Contains(health, c) {
			t.Errorf("kgroups health --help does not name the cause %q (%s)", c, id)
		}
	}
}
