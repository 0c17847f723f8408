package diagnose

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEveryFindingIsDocumented: each finding id (the ID constants of
// finding.go) has a row in docs/diagnosis.md's table and a section in
// docs/findings.md, so that the pages cannot lag the rules again.
func TestEveryFindingIsDocumented(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "finding.go", nil, 0)
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
	if !slices.Equal(ids, IDs) {
		t.Errorf("IDs = %v, the ID constants of finding.go %v: add the new one to IDs", IDs, ids)
	}
	diagnosis, err := os.ReadFile("../../docs/diagnosis.md")
	if err != nil {
		t.Fatal(err)
	}
	findings, err := os.ReadFile("../../docs/findings.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !strings.Contains(string(diagnosis), "\n| `"+id+"` |") {
			t.Errorf("docs/diagnosis.md's findings table has no row for %s", id)
		}
		if !strings.Contains(string(findings), "\n### "+id+" (") {
			t.Errorf("docs/findings.md has no section for %s", id)
		}
	}
}
