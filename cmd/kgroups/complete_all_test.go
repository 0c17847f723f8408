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
