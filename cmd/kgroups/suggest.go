package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
)

// usageHint is the line after a usage error: where the help of the command
// that was called wrongly is, as gh and kubectl say it.
func usageHint(cmd *cobra.Command) string {
	if cmd == nil || !cmd.HasParent() {
		return "Run 'kgroups --help' for usage."
	}
	return "Run '" + cmd.CommandPath() + " --help' for usage."
}

// unknownCommand is the error for an argument where cmd expects one of its
// subcommands, with the closest of them.
func unknownCommand(cmd *cobra.Command, arg string) error {
	var names []string
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	similar := commandSuggestions(cmd, arg)
	if len(similar) == 0 {
		similar = kafka.SimilarNames(arg, names)
	}
	return fmt.Errorf("unknown command %q for %q%s", arg, cmd.CommandPath(), kafka.DidYouMean(similar))
}

// commandSuggestions is what cobra suggests for arg (its distance, prefixes
// and SuggestFor), at most three.
func commandSuggestions(cmd *cobra.Command, arg string) []string {
	if cmd.DisableSuggestions {
		return nil
	}
	s := cmd.SuggestionsFor(arg)
	if len(s) > 3 {
		s = s[:3]
	}
	return s
}

// flagError makes a flag parsing error a usage error, and adds the closest
// flags of cmd to an unknown long flag.
func flagError(cmd *cobra.Command, err error) error {
	if iv, ok := errors.AsType[*pflag.InvalidValueError](err); ok {
		return usageError{invalidValue(iv)}
	}
	const prefix = "unknown flag: --"
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return usageError{err}
	}
	name := strings.TrimPrefix(msg, prefix)
	var known []string
	seen := map[string]bool{}
	add := func(f *pflag.Flag) {
		if f.Deprecated == "" && !seen[f.Name] {
			seen[f.Name] = true
			known = append(known, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	if cmd.Name() != "help" {
		known = append(known, "help")
	}
	similar := kafka.SimilarNames(name, known)
	if len(similar) == 0 {
		return usageError{err}
	}
	q := make([]string, len(similar))
	for i, s := range similar {
		q[i] = "--" + s
	}
	hint := q[0]
	if len(q) > 1 {
		hint = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return usageError{fmt.Errorf("%s; did you mean %s?", msg, hint)}
}

// similarGroups lists the cluster's groups once and gives, for each of
// names, the listed names closest to it. A failed listing gives none: the
// suggestion is a courtesy, not worth a second error.
func similarGroups(ctx context.Context, cl *kafka.Client, names []string) map[string][]string {
	if len(names) == 0 || cl == nil {
		return nil
	}
	listed, _ := cl.GroupNames(ctx)
	out := make(map[string][]string, len(names))
	for _, n := range names {
		out[n] = kafka.SimilarNames(n, listed)
	}
	return out
}

// groupNotFound is the error for an unknown group, with the closest
// listed names.
func groupNotFound(ctx context.Context, cl *kafka.Client, name string) error {
	return &kafka.GroupNotFoundError{Group: name, Similar: similarGroups(ctx, cl, []string{name})[name]}
}

// reportMissing notes every group of missing on stderr but the last, and
// returns the last as the command's error, each with its closest listed
// names.
func reportMissing(ctx context.Context, a *app, cl *kafka.Client, missing []string) error {
	similar := similarGroups(ctx, cl, missing)
	for _, name := range missing[:len(missing)-1] {
		a.notef("kgroups: %s", kafka.GroupNotFound(name, similar[name]))
	}
	last := missing[len(missing)-1]
	return &kafka.GroupNotFoundError{Group: last, Similar: similar[last]}
}

// withSimilar fills in the closest listed names of an unknown group that
// err carries (from kafka or kafka/reset), and returns err.
func withSimilar(ctx context.Context, cl *kafka.Client, err error) error {
	var kn *kafka.GroupNotFoundError
	var rn *reset.GroupNotFoundError
	switch {
	case errors.As(err, &kn) && kn.Similar == nil:
		kn.Similar = similarGroups(ctx, cl, []string{kn.Group})[kn.Group]
	case errors.As(err, &rn) && rn.Similar == nil:
		rn.Similar = similarGroups(ctx, cl, []string{rn.Group})[rn.Group]
	}
	return err
}

// missingGroupsError is groups named on the command line that the cluster
// does not list, found where no client is at hand; the command turns it
// into its notes and error with explainMissing.
type missingGroupsError struct{ names []string }

func (e missingGroupsError) Error() string {
	return kafka.GroupNotFound(e.names[len(e.names)-1], nil)
}

// explainMissing reports the groups of a missingGroupsError with their
// closest listed names (reportMissing), fills in those of an unknown group
// (withSimilar), and returns any other err as it is.
func explainMissing(ctx context.Context, a *app, cl *kafka.Client, err error) error {
	var m missingGroupsError
	if errors.As(err, &m) {
		return reportMissing(ctx, a, cl, m.names)
	}
	return withSimilar(ctx, cl, err)
}

// fillSimilar is withSimilar for several errors, with one listing.
func fillSimilar(ctx context.Context, cl *kafka.Client, errs []error) {
	var unknown []*reset.GroupNotFoundError
	var names []string
	for _, err := range errs {
		var rn *reset.GroupNotFoundError
		if errors.As(err, &rn) && rn.Similar == nil {
			unknown = append(unknown, rn)
			names = append(names, rn.Group)
		}
	}
	similar := similarGroups(ctx, cl, names)
	for _, rn := range unknown {
		rn.Similar = similar[rn.Group]
	}
}

// invalidValue words a flag value that did not parse as what is accepted,
// in place of the parser's own message ("time: unknown unit "x" in
// duration "10x""): "--window 10x: want a duration like 500ms, 10s or
// 1m (units ns, us, ms, s, m, h)".
func invalidValue(e *pflag.InvalidValueError) error {
	f := e.GetFlag()
	want := ""
	switch f.Value.Type() {
	case "duration":
		want = "a duration like 500ms, 10s or 1m (units ns, us, ms, s, m, h)"
	case "int", "int32", "int64":
		want = "a whole number like 10"
	case "uint", "uint32", "uint64":
		want = "a whole number of 0 or more, like 10"
	case "float32", "float64":
		want = "a number like 0.5"
	case "bool":
		want = "true or false"
	}
	if want == "" {
		return e
	}
	return fmt.Errorf("--%s %s: want %s", f.Name, strconv.Quote(e.GetValue()), want)
}
