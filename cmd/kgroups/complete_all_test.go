package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryArgumentHasACompletion: every command that takes an argument
// completes it, and every flag that takes a value completes it, so that a
// new command or flag cannot leave Tab offering file names by accident.
// A command declares its completions beside its flags (completeArgs,
// completeFlag, and the shared flag helpers in flags.go); `none` says
// there is nothing to offer, ShellCompDirectiveDefault that file names fit.
func TestEveryArgumentHasACompletion(t *testing.T) {
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, os.Getenv)
	root := commandTree(a, nil)
	var walk func(c *cobra.Command)
	checked := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" || c.HasParent() && c.Parent().Name() == "completion" || !c.Runnable() {
			return
		}
		checked++
		if c.Args == nil || c.Args(c, []string{"x"}) == nil {
			if c.ValidArgsFunction == nil && len(c.ValidArgs) == 0 {
				t.Errorf("%s takes arguments and completes none: set its ValidArgsFunction where the command is made", c.CommandPath())
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" {
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); !ok {
				t.Errorf("%s --%s takes a value and completes none: register one beside the flag (completeFlag; none when there is nothing to offer)", c.CommandPath(), f.Name)
			}
		})
	}
	walk(root)
	if checked < 15 {
		t.Fatalf("checked %d commands; the walk missed the command tree", checked)
	}
}

// TestEveryCommandDocumented: docs/cli.md's table of commands names every
// command kgroups has, and links it to a section of the page, so that a
// new command cannot ship without its reference.
func TestEveryCommandDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	anchors := headingAnchors(doc)
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, os.Getenv)
	n := 0
	for _, c := range commandTree(a, nil).Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		n++
		var row string
		for _, l := range strings.Split(doc, "\n") {
			if strings.HasPrefix(l, "| [") && strings.Contains(l, "`"+c.Name()+"`") {
				row = l
				break
			}
		}
		if row == "" {
			t.Errorf("docs/cli.md's table of commands has no row for %s", c.Name())
			continue
		}
		link, _, _ := strings.Cut(row, ")")
		_, anchor, _ := strings.Cut(link, "](#")
		if !anchors[anchor] {
			t.Errorf("docs/cli.md: %s's row links #%s, which no heading makes", c.Name(), anchor)
		}
	}
	if n < 12 {
		t.Fatalf("checked %d commands; the tree is missing some", n)
	}
}
