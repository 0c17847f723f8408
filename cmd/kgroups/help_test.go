package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// allCommands is kgroups' command tree, built as run builds it.
func allCommands() *cobra.Command {
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, os.Getenv)
	root := newRootCmd(a)
	for _, f := range subcommands {
		root.AddCommand(f(a))
	}
	return root
}

// TestUsageLinesListWideAndNewGroup: a command that has --wide or
// --new-group says so in its usage line.
func TestUsageLinesListWideAndNewGroup(t *testing.T) {
	var walk func(c *cobra.Command)
	seen := 0
	walk = func(c *cobra.Command) {
		for _, name := range []string{"wide", "new-group"} {
			if c.LocalNonPersistentFlags().Lookup(name) == nil {
				continue
			}
			seen++
			if !strings.Contains(c.Use, "[--"+name+"]") {
				t.Errorf("%s has --%s, but its usage line does not list it: %q", c.CommandPath(), name, c.Use)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(allCommands())
	// describe, diagnose, health, list, simulate, rebalance, reset
	// (twice), undo (twice), delete, delete-offsets.
	if seen != 12 {
		t.Errorf("%d commands with --wide or --new-group, want 12", seen)
	}
}

func TestResetHelpExamples(t *testing.T) {
	isolateConfig(t)
	code, stdout, stderr := runKgroups(t, "reset", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `Usage:
  kgroups reset GROUP <scenario> (--all-topics | --topic T[:P,...]...) [--new-group] [--execute] [--export] [--wide] [-o table|json|csv] [flags]

Examples:
  kgroups reset orders --to-earliest --all-topics
  kgroups reset orders --shift-by -100 --topic payments:0,2
  kgroups reset orders --to-datetime 2024-03-01T09:30:00.000+01:00 --topic payments --execute
  kgroups reset orders --to-current --all-topics --export > before.csv
  kgroups reset orders --by-duration PT30M --all-topics --execute
  kgroups reset orders --from-file before.csv --execute
`
	if !strings.Contains(stdout, want) {
		t.Errorf("reset --help lacks\n%s\nit says:\n%s", want, stdout)
	}
}

// TestResetExportExample runs the help's example: the export keeps the
// offsets from before the change, and --from-file puts them back.
func TestResetExportExample(t *testing.T) {
	rc := startResetCluster(t)
	code, stdout, stderr := rc.kg(t, "reset", "g", "--to-current", "--all-topics", "--export")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	assertOutput(t, "before.csv", stdout, "orders,0,5\norders,1,10\n")
	before := filepath.Join(t.TempDir(), "before.csv")
	writeFile(t, before, stdout)
	if code, _, stderr = rc.kg(t, "reset", "g", "--to-earliest", "--all-topics", "--execute"); code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 0})
	if code, _, stderr = rc.kg(t, "reset", "g", "--from-file", before, "--execute"); code != 0 {
		t.Fatalf("restore: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
}

// TestRootHelpNamesTLSAndSASLFlags: kgroups --help says where the hidden
// TLS and SASL flags are listed, and they are listed there.
func TestRootHelpNamesTLSAndSASLFlags(t *testing.T) {
	isolateConfig(t)
	code, stdout, stderr := runKgroups(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "TLS and SASL flags (--tls, --tls-ca-file, --sasl-mechanism, ...) are not listed below: kgroups config --help\n" +
		"lists them with the file format and every KGROUPS_* variable.\n"
	if !strings.Contains(stdout, want) {
		t.Errorf("kgroups --help lacks %q:\n%s", want, stdout)
	}
	code, stdout, stderr = runKgroups(t, "config", "--help")
	if code != 0 {
		t.Fatalf("config --help: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"--tls ", "--tls-ca-file ", "--tls-cert-file ", "--tls-key-file ", "--sasl-mechanism ", "--sasl-username ", "--sasl-password-file ", "--sasl-token-file "} {
		if !strings.Contains(stdout, f) {
			t.Errorf("config --help does not list %s", f)
		}
	}
}

// TestHelpMatchesOutput: describe --help names the LEADER column that
// --state prints, and version --help lists none of the connection flags
// version never uses.
func TestHelpMatchesOutput(t *testing.T) {
	isolateConfig(t)
	code, stdout, stderr := runKgroups(t, "describe", "--help")
	if code != 0 {
		t.Fatalf("describe --help: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"  --state    GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS LEADER\n",
		"--state adds LEADER after the Kafka tool's columns: the client implementation\n" +
			"kgroups infers a classic group's leader runs, which decides how its assignor\n" +
			"breaks ties (\"-\" when unknown, or when the broker assigns).\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("describe --help lacks %q", want)
		}
	}
	code, stdout, stderr = runKgroups(t, "version", "--help")
	if code != 0 {
		t.Fatalf("version --help: exit %d: %s", code, stderr)
	}
	if !strings.HasSuffix(stdout, "Flags:\n"+
		"  -h, --help            help for version\n"+
		"  -o, --output string   output format: text or json (default \"text\")\n"+
		"      --short           print the version number only\n") {
		t.Errorf("version --help does not end with its own flags:\n%s", stdout)
	}
	for _, f := range []string{"--brokers", "--tls", "--timeout", "--context", "Global Flags"} {
		if strings.Contains(stdout, f) {
			t.Errorf("version --help lists %s:\n%s", f, stdout)
		}
	}
	// Other commands still list them.
	if _, stdout, _ = runKgroups(t, "list", "--help"); !strings.Contains(stdout, "--brokers") {
		t.Errorf("list --help lost the global flags:\n%s", stdout)
	}
}

// TestHelpReferencesExist: every page a command's help names (a page of docs/,
// with its #anchor) exists, and every section it sends the reader to
// ("see 'Global flags and exit codes' in docs/cli.md") is a heading of that page.
func TestHelpReferencesExist(t *testing.T) {
	pageRef := regexp.MustCompile(`(?:README\.md|docs/[a-z0-9-]+\.md)(?:#[a-z0-9_-]+)?`)
	sectionRef := regexp.MustCompile(`'([^']+)'\s+in\s+(?:the\s+)?(README(?:\.md)?|docs/[a-z0-9-]+\.md)`)
	read := func(page string) string {
		if page == "README" {
			page = "README.md"
		}
		b, err := os.ReadFile(filepath.Join("..", "..", page))
		if err != nil {
			t.Errorf("%v", err)
		}
		return string(b)
	}
	refs := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		text := c.Long + "\n" + c.Example
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { text += "\n" + f.Usage })
		text = strings.Join(strings.Fields(text), " ") // help text wraps anywhere
		for _, ref := range pageRef.FindAllString(text, -1) {
			refs++
			page, anchor, _ := strings.Cut(ref, "#")
			doc := read(page)
			if anchor != "" && !headingAnchors(doc)[anchor] {
				t.Errorf("%s's help names %s: no heading makes #%s", c.CommandPath(), ref, anchor)
			}
		}
		for _, m := range sectionRef.FindAllStringSubmatch(text, -1) {
			refs++
			if !headingAnchors(read(m[2]))[headingSlug(m[1])] {
				t.Errorf("%s's help sends the reader to '%s' in %s: no such heading", c.CommandPath(), m[1], m[2])
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(allCommands())
	if refs == 0 {
		t.Error("no help text names a page: the patterns are wrong")
	}
}
