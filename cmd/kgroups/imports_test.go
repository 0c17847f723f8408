package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoScreenImports: the command line writes through views/output and
// opens the UI through tui; it never imports a screen, whose renderers
// would then be the CLI's too.
func TestNoScreenImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/kgroups/kgroups/views/output":  true,
		"github.com/kgroups/kgroups/views/format":  true,
		"github.com/kgroups/kgroups/views/columns": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/kgroups/kgroups/views/") && !allowed[path] {
				t.Errorf("%s imports %s: the CLI writes through views/output", name, path)
			}
		}
	}
}
