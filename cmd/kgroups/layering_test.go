package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The layering of ARCHITECTURE.md, as data. Folders stack with no import
// climbing back up: cmd -> tui -> views -> kafka -> config. Within views,
// a screen never imports another screen, and shared packages (contracts,
// widgets, renderers, format) never import a screen.
const module = "github.com/kgroups/kgroups"

var floors = []struct {
	prefix string
	floor  int
}{
	{module + "/config", 1},
	{module + "/kafka", 2},
	{module + "/views", 3},
	{module + "/tui", 4},
	{module + "/cmd", 5},
}

// screens are the packages that are one screen each.
var screens = []string{"groups", "group", "help", "reset", "rebalance", "simulate", "timeline", "streams", "record", "diagnosis"}

// cliViews are the views packages the command line may import: it writes
// through the CLI renderers and opens the UI through tui, never a screen.
var cliViews = []string{module + "/views/output", module + "/views/format", module + "/views/columns"}

// uiFrameworks may be imported by tui and views only (views/format and
// views/output excepted: they serve the command line too).
var uiFrameworks = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/bubbles",
	"github.com/charmbracelet/lipgloss",
}

type listedPackage struct {
	ImportPath string
	Imports    []string
}

func floorOf(path string) int {
	for _, f := range floors {
		if path == f.prefix || strings.HasPrefix(path, f.prefix+"/") {
			return f.floor
		}
	}
	return 0
}

func isScreen(path string) bool {
	rest, ok := strings.CutPrefix(path, module+"/views/")
	return ok && slices.Contains(screens, rest)
}

func hasPrefixAny(path string, prefixes ...string) bool {
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// layeringViolations lists every import that breaks a rule, as
// "importer -> imported: rule".
func layeringViolations(pkgs []listedPackage) []string {
	var out []string
	bad := func(p, imp, rule string) { out = append(out, p+" -> "+imp+": "+rule) }
	for _, p := range pkgs {
		from := floorOf(p.ImportPath)
		if from == 0 {
			continue
		}
		for _, imp := range p.Imports {
			if to := floorOf(imp); to > from {
				bad(p.ImportPath, imp, "imports a package from a higher floor")
			}
			switch {
			case isScreen(imp) && isScreen(p.ImportPath):
				bad(p.ImportPath, imp, "a screen imports another screen")
			case isScreen(imp) && hasPrefixAny(p.ImportPath, module+"/views"):
				bad(p.ImportPath, imp, "a shared views package imports a screen")
			case hasPrefixAny(p.ImportPath, module+"/cmd") && hasPrefixAny(imp, module+"/views") &&
				!hasPrefixAny(imp, cliViews...):
				bad(p.ImportPath, imp, "the command line imports views other than the CLI's renderers")
			}
			uiPkg := hasPrefixAny(p.ImportPath, module+"/tui", module+"/views") &&
				!hasPrefixAny(p.ImportPath, module+"/views/format", module+"/views/output")
			if hasPrefixAny(imp, uiFrameworks...) && !uiPkg {
				bad(p.ImportPath, imp, "a UI framework outside tui and the screens")
			}
			if hasPrefixAny(imp, "github.com/spf13/viper") && !hasPrefixAny(p.ImportPath, module+"/config", module+"/cmd") {
				bad(p.ImportPath, imp, "viper outside config and cmd")
			}
			if hasPrefixAny(imp, "github.com/spf13/cobra") && !hasPrefixAny(p.ImportPath, module+"/cmd") {
				bad(p.ImportPath, imp, "cobra outside cmd")
			}
			if hasPrefixAny(p.ImportPath, module+"/cmd/floorbench") && strings.HasPrefix(imp, module+"/") {
				bad(p.ImportPath, imp, "floorbench measures kgroups from outside: its floor is bare kadm, it imports no kgroups package")
			}
			if hasPrefixAny(p.ImportPath, module+"/views/format") && strings.HasPrefix(imp, module+"/") && imp != module+"/kafka/lag" {
				bad(p.ImportPath, imp, "format is a leaf (it may import kafka/lag only)")
			}
		}
	}
	return out
}

// TestLayering fails when any package of the module imports across the
// allowed direction.
func TestLayering(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, v := range layeringViolations(pkgs) {
		t.Error(v)
	}
}

// TestLayeringRules proves that each rule catches what it is for.
func TestLayeringRules(t *testing.T) {
	m := func(s string) string { return module + "/" + s }
	pkgs := []listedPackage{
		{m("kafka"), []string{m("views/ui")}},
		{m("kafka/lag"), []string{"github.com/charmbracelet/lipgloss"}},
		{m("views/group"), []string{m("views/simulate"), m("tui")}},
		{m("views/table"), []string{m("views/groups")}},
		{m("cmd/kgroups"), []string{m("views/reset"), m("views/output"), m("views/table"), m("tui")}},
		{m("views/format"), []string{m("views/ui"), m("kafka/lag")}},
		{m("config"), []string{"github.com/spf13/viper"}},
		{m("kafka/reset"), []string{"github.com/spf13/viper"}},
		{m("views/ui"), []string{"github.com/charmbracelet/bubbletea", m("kafka")}},
		{m("cmd/floorbench"), []string{"github.com/twmb/franz-go/pkg/kadm", m("kafka")}},
	}
	got := layeringViolations(pkgs)
	want := []string{
		m("kafka") + " -> " + m("views/ui") + ": imports a package from a higher floor",
		m("kafka/lag") + " -> github.com/charmbracelet/lipgloss: a UI framework outside tui and the screens",
		m("views/group") + " -> " + m("views/simulate") + ": a screen imports another screen",
		m("views/group") + " -> " + m("tui") + ": imports a package from a higher floor",
		m("views/table") + " -> " + m("views/groups") + ": a shared views package imports a screen",
		m("cmd/kgroups") + " -> " + m("views/reset") + ": the command line imports views other than the CLI's renderers",
		m("cmd/kgroups") + " -> " + m("views/table") + ": the command line imports views other than the CLI's renderers",
		m("views/format") + " -> " + m("views/ui") + ": format is a leaf (it may import kafka/lag only)",
		m("kafka/reset") + " -> github.com/spf13/viper: viper outside config and cmd",
		m("cmd/floorbench") + " -> " + m("kafka") + ": floorbench measures kgroups from outside: its floor is bare kadm, it imports no kgroups package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
