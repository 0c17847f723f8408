package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/diagnose"
)

// findingIDs are the ID constants of kafka/diagnose/finding.go, read from
// the source so that a new finding is checked with no step here.
func findingIDs(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../kafka/diagnose/finding.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			if strings.HasPrefix(name.Name, "ID") && i < len(vs.Values) {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					id, _ := strconv.Unquote(lit.Value)
					ids = append(ids, id)
				}
			}
		}
		return true
	})
	if len(ids) < 12 {
		t.Fatalf("found %d finding ids in finding.go: %v", len(ids), ids)
	}
	return ids
}

// TestHelpNamesEveryFinding: `kgroups diagnose --help` lists every
// finding, and `kgroups health --help` every short cause its CAUSE column
// can show, so that the help cannot lag the rules.
func TestHelpNamesEveryFinding(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	_, diag, _ := kg(t, "diagnose", "--help")
	_, health, _ := kg(t, "health", "--help")
	diag, health = oneLine(diag), oneLine(health)
	for _, id := range findingIDs(t) {
		if !strings.Contains(diag, " "+id+" ") {
			t.Errorf("kgroups diagnose --help does not list the finding %s", id)
		}
		if c := diagnose.Cause(id); c != "" && !strings.Contains(health, c) {
			t.Errorf("kgroups health --help does not name the cause %q (%s)", c, id)
		}
	}
}
