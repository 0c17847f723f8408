package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newRedactCmd) }

func newRedactCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "redact IN OUT",
		Short: "Replace the names in a recording with pseudonyms, for a bug report",
		Long: `Write OUT, a copy of the recording IN (kgroups record) in which group, topic,
member, instance, client and host names, and the cluster's, are replaced
with stable pseudonyms: group-1 is the same group at every poll, host-3:9092
keeps its port. Commit metadata and classic members' join metadata (topic
names and the client's user data) are dropped, and the names inside error
messages replaced. The structure, the counts and every number stay, so
'kgroups replay OUT' and 'health --from OUT' judge it as they judge IN.

OUT must not exist: kgroups never writes over a recording. IN is read as
far as its last whole poll (a recording cut by a crash, or still being
written, is redacted up to there). kgroups record --redact writes a
redacted recording in the first place.`,
		Example: `  kgroups redact incident.kgrec incident-redacted.kgrec`,
		Args:    cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			return runRedact(a, args[0], args[1])
		},
	}
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveDefault
	}
	return cmd
}

func runRedact(a *app, in, out string) error {
	if _, err := os.Lstat(out); err == nil {
		return usageErrorf("%s already exists: kgroups never writes over a recording; give another file name", out)
	}
	f, err := os.Open(in)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("no recording at %s: give a file written by kgroups record", in)
		}
		return err
	}
	defer func() { _ = f.Close() }()
	rd, err := recording.NewReader(f)
	if err != nil {
		return fmt.Errorf("read recording %s: %w", in, err)
	}
	r := recording.NewRedactor()
	w, err := recording.Create(out, r.Header(rd.Header))
	if err != nil {
		return err
	}
	for {
		p, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			err = w.Write(r.Poll(*p))
		}
		if err != nil {
			_ = w.Close()
			_ = os.Remove(out)
			return fmt.Errorf("redact %s: %w", in, err)
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if rd.Torn() != nil {
		a.notef("kgroups: %s ends in a torn poll (%v): the %s before it are redacted", in, rd.Torn(), pollCount(rd.Polls()))
	}
	a.notef("kgroups redact: %s, %s in %s; replaced %s", pollCount(w.Polls()), render.Size(w.Size()), out, redactedCounts(r))
	return nil
}

// redactedCounts says how many names of each kind were replaced: "4
// groups, 6 topics, ...".
func redactedCounts(r *recording.Redactor) string {
	counts := r.Counts()
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], plural(k, counts[k])))
	}
	if len(parts) == 0 {
		return "no names"
	}
	return strings.Join(parts, ", ")
}

func plural(kind string, n int) string {
	if n == 1 {
		return kind
	}
	if strings.HasSuffix(kind, "s") {
		return kind + "es"
	}
	return kind + "s"
}
