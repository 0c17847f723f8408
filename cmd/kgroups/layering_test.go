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

// screensDir holds one folder per screen; a screen is whatever lives there,
// so a new screen is covered by the rules without being listed.
const screensDir = module + "/views/screens"

// viewsRoles are the folders views may hold, each one role: the UI contract,
// the leaf formatter, column definitions, the renderers the CLI and screens
// share, widgets, screens and the screens' test helpers.
var viewsRoles = []string{"ui", "format", "columns", "render", "widgets", "screens", "viewtest"}

// cliViews are the views packages the command line may import: it writes
// through the CLI renderers and opens the UI through tui, never a screen.
var cliViews = []string{module + "/views/render", module + "/views/format", module + "/views/columns"}

// uiFrameworks may be imported by tui and views only (views/format and
// views/render excepted: they serve the command line too).
var uiFrameworks = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/bubbles",
	"github.com/charmbracelet/lipgloss",
}

// outsiders measure or seed kgroups from outside, as any other client
// would: each imports no kgroups package but those it names in may, which
// are outsiders themselves. cmd/benchseed seeds the cluster that uibench
// and exporterbench measure, so the two share it rather than keep a copy
// each.
var outsiders = []struct {
	pkg, why string
	may      []string
}{
	{pkg: "cmd/floorbench", why: "floorbench measures kgroups from outside: its floor is bare kadm, it imports no kgroups package"},
	{pkg: "cmd/exporterbench", why: "exporterbench measures exporters from outside, kgroups as any other: it imports no kgroups package but cmd/benchseed",
		may: []string{module + "/cmd/benchseed"}},
	{pkg: "cmd/benchseed", why: "benchseed seeds a cluster with kadm only, for benches that measure kgroups from outside: it imports no kgroups package"},
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

// screenOf names the screen a package belongs to (its folder under
// views/screens), or "" for a package that is not part of a screen.
func screenOf(path string) string {
	rest, ok := strings.CutPrefix(path, screensDir+"/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

func isScreen(path string) bool { return screenOf(path) != "" }

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
		if rest, ok := strings.CutPrefix(p.ImportPath, module+"/views/"); ok {
			role, _, _ := strings.Cut(rest, "/")
			if !slices.Contains(viewsRoles, role) || p.ImportPath == screensDir || p.ImportPath == module+"/views/widgets" {
				bad(p.ImportPath, "", "a views package outside the role folders (views/{"+strings.Join(viewsRoles, ",")+"}/...)")
			}
		}
		for _, imp := range p.Imports {
			if to := floorOf(imp); to > from {
				bad(p.ImportPath, imp, "imports a package from a higher floor")
			}
			switch {
			case isScreen(imp) && isScreen(p.ImportPath):
				if screenOf(imp) != screenOf(p.ImportPath) {
					bad(p.ImportPath, imp, "a screen imports another screen")
				}
			case isScreen(imp) && hasPrefixAny(p.ImportPath, module+"/views"):
				bad(p.ImportPath, imp, "a shared views package imports a screen")
			case hasPrefixAny(p.ImportPath, module+"/cmd") && hasPrefixAny(imp, module+"/views") &&
				!hasPrefixAny(imp, cliViews...):
				bad(p.ImportPath, imp, "the command line imports views other than the CLI's renderers")
			}
			uiPkg := hasPrefixAny(p.ImportPath, module+"/tui", module+"/views") &&
				!hasPrefixAny(p.ImportPath, module+"/views/format", module+"/views/render")
			if hasPrefixAny(imp, uiFrameworks...) && !uiPkg {
				bad(p.ImportPath, imp, "a UI framework outside tui and the screens")
			}
			if hasPrefixAny(imp, "github.com/spf13/viper") && !hasPrefixAny(p.ImportPath, module+"/config", module+"/cmd") {
				bad(p.ImportPath, imp, "viper outside config and cmd")
			}
			if hasPrefixAny(imp, "github.com/spf13/cobra") && !hasPrefixAny(p.ImportPath, module+"/cmd") {
				bad(p.ImportPath, imp, "cobra outside cmd")
			}
			for _, o := range outsiders {
				if hasPrefixAny(p.ImportPath, module+"/"+o.pkg) && strings.HasPrefix(imp, module+"/") && !slices.Contains(o.may, imp) {
					bad(p.ImportPath, imp, o.why)
				}
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
		{m("views/screens/groupdetail"), []string{m("views/screens/simulate"), m("tui")}},
		{m("views/widgets/table"), []string{m("views/screens/grouplist")}},
		{m("cmd/kgroups"), []string{m("views/screens/resetwizard"), m("views/render"), m("views/widgets/table"), m("tui")}},
		{m("views/format"), []string{m("views/ui"), m("kafka/lag")}},
		{m("views/screens/planted"), []string{m("views/screens/grouplist"), m("views/screens/planted/part")}},
		{m("views/screens/planted/part"), []string{m("views/widgets/table")}},
		{m("views/stray"), nil},
		{m("config"), []string{"github.com/spf13/viper"}},
		{m("kafka/reset"), []string{"github.com/spf13/viper"}},
		{m("views/ui"), []string{"github.com/charmbracelet/bubbletea", m("kafka")}},
		{m("cmd/floorbench"), []string{"github.com/twmb/franz-go/pkg/kadm", m("kafka")}},
		{m("cmd/exporterbench"), []string{"github.com/twmb/franz-go/pkg/kfake", m("kafka/lag"), m("cmd/benchseed")}},
		{m("cmd/benchseed"), []string{"github.com/twmb/franz-go/pkg/kadm", m("kafka")}},
		{m("cmd/uibench"), []string{m("cmd/benchseed"), m("tui")}},
	}
	got := layeringViolations(pkgs)
	want := []string{
		m("kafka") + " -> " + m("views/ui") + ": imports a package from a higher floor",
		m("kafka/lag") + " -> github.com/charmbracelet/lipgloss: a UI framework outside tui and the screens",
		m("views/screens/groupdetail") + " -> " + m("views/screens/simulate") + ": a screen imports another screen",
		m("views/screens/groupdetail") + " -> " + m("tui") + ": imports a package from a higher floor",
		m("views/widgets/table") + " -> " + m("views/screens/grouplist") + ": a shared views package imports a screen",
		m("cmd/kgroups") + " -> " + m("views/screens/resetwizard") + ": the command line imports views other than the CLI's renderers",
		m("cmd/kgroups") + " -> " + m("views/widgets/table") + ": the command line imports views other than the CLI's renderers",
		m("views/format") + " -> " + m("views/ui") + ": format is a leaf (it may import kafka/lag only)",
		m("views/screens/planted") + " -> " + m("views/screens/grouplist") + ": a screen imports another screen",
		m("views/stray") + " -> : a views package outside the role folders (views/{ui,format,columns,render,widgets,screens,viewtest}/...)",
		m("kafka/reset") + " -> github.com/spf13/viper: viper outside config and cmd",
		m("cmd/floorbench") + " -> " + m("kafka") + ": floorbench measures kgroups from outside: its floor is bare kadm, it imports no kgroups package",
		m("cmd/exporterbench") + " -> " + m("kafka/lag") + ": exporterbench measures exporters from outside, kgroups as any other: it imports no kgroups package but cmd/benchseed",
		m("cmd/benchseed") + " -> " + m("kafka") + ": benchseed seeds a cluster with kadm only, for benches that measure kgroups from outside: it imports no kgroups package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// testOnlyModules are modules the tests use as references and the
// binary must not link: Prometheus' client libraries cost every command
// their initialisers and resident pages (docs/performance.md, Start-up),
// and views/render/metrics writes what they wrote.
var testOnlyModules = []string{
	"github.com/prometheus/client_golang",
	"github.com/prometheus/client_model",
	"github.com/prometheus/common",
	"github.com/prometheus/procfs",
	"google.golang.org/protobuf",
}

// TestBinaryLinksNoTestOnlyModule: no package kgroups is built from
// comes from a test-only module.
func TestBinaryLinksNoTestOnlyModule(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", module+"/cmd/kgroups")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	deps := strings.Fields(string(raw))
	if !slices.Contains(deps, module+"/views/render/metrics") {
		t.Fatalf("go list -deps lists %d packages, not views/render/metrics", len(deps))
	}
	for _, p := range deps {
		for _, m := range testOnlyModules {
			if p == m || strings.HasPrefix(p, m+"/") {
				t.Errorf("kgroups links %s, of the test-only module %s", p, m)
			}
		}
	}
}

// topLevel is everything the repository may hold at its top: the five
// floors' folders, the module files, the docs and the build's own
// files. A built binary (`go build ./cmd/floorbench` run at the top)
// or a new folder beside the floors fails here.
var topLevel = []string{
	".ci", ".gitignore", ".golangci.yml", ".goreleaser.yaml",
	"ARCHITECTURE.md", "CHANGELOG.md", "LICENSE", "Makefile", "README.md",
	"cmd", "config", "docs", "go.mod", "go.sum", "kafka", "tui", "views",
}

// TestTopLevelLayout: the files git tracks live only where topLevel
// says. Outside a git checkout (a source archive) there is nothing to
// read, and the test says so.
func TestTopLevelLayout(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("no git checkout to read: %v", err)
	}
	seen := map[string]bool{}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		top, _, _ := strings.Cut(f, "/")
		if top != "" && !slices.Contains(topLevel, top) && !seen[top] {
			seen[top] = true
			t.Errorf("%s is tracked at the top of the repository; the top holds only %s (ARCHITECTURE.md)", top, strings.Join(topLevel, ", "))
		}
	}
}
