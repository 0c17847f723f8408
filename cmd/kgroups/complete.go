package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/views/format"
)

// completionTimeout bounds everything one completion asks the cluster: a
// Tab that waits longer than this is worse than one that offers nothing.
const completionTimeout = 1500 * time.Millisecond

// completionRequest reports whether args ask cobra for completions (what
// the shell scripts run on Tab); kgroups then prints nothing on stderr.
func completionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

const noFiles = cobra.ShellCompDirectiveNoFileComp

// Completion is declared beside what it completes, as gh does: each
// command sets its ValidArgsFunction and registers its flags' completions
// (completeFlag) where it declares them, and the shared flag helpers in
// flags.go register theirs. TestEveryArgumentHasACompletion fails when a
// command's argument or a flag's value has none. This file holds the
// completion functions they use: group names filtered by what each
// command accepts, context names from the configuration file, topics and
// topic:partition, member and instance ids, and fixed lists. Reads of the
// cluster are bounded by completionTimeout, and any failure completes
// nothing.

// completeFlag registers how the value of cmd's flag name completes. A
// flag cmd lacks, or one registered twice, is a mistake in the code, found
// by any test that builds the command tree.
func completeFlag(cmd *cobra.Command, name string, f cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(name, f); err != nil {
		panic(err)
	}
}

// addRootCompletions completes the global flags, which come from
// config.Settings: --context with the file's context names, a setting
// that names a file with file names, and every other one with nothing
// (no file names for a broker list or a duration). A new setting needs no
// step here.
func addRootCompletions(root *cobra.Command, a *app) {
	for i := range config.Settings {
		s := &config.Settings[i]
		f := root.PersistentFlags().Lookup(s.Flag)
		if s.Flag == "" || f == nil || s.Kind == config.KindBool {
			continue
		}
		switch {
		case s.Key == config.KeyContext:
			completeFlag(root, s.Flag, a.completeContexts)
		case namesFile(s):
			completeFlag(root, s.Flag, files)
		default:
			completeFlag(root, s.Flag, none)
		}
	}
}

// namesFile reports whether a setting's value is a file's path: the
// configuration file, the debug log, and every *_file key.
func namesFile(s *config.Setting) bool {
	return s.Key == config.KeyConfig || s.Key == config.KeyDebug || strings.HasSuffix(s.Key, "_file")
}

// files lets the shell complete file names.
func files(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveDefault
}

// dirs lets the shell complete folder names.
func dirs(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// fixed completes one of values (each may carry "\tdescription").
func fixed(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(values, toComplete), noFiles
	}
}

// none completes nothing, not even file names.
func none(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, noFiles
}

// commaList completes the next item of a comma-separated list of values.
func commaList(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		done, last := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			done, last = toComplete[:i+1], toComplete[i+1:]
		}
		given := strings.Split(strings.ToLower(done), ",")
		var out []string
		for _, v := range values {
			if !slices.Contains(given, strings.ToLower(v)) && strings.HasPrefix(strings.ToLower(v), strings.ToLower(last)) {
				out = append(out, done+v)
			}
		}
		return out, noFiles
	}
}

// withPrefix keeps the completions that start with toComplete.
func withPrefix(values []string, toComplete string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, toComplete) {
			out = append(out, v)
		}
	}
	return out
}

// csvFiles completes offsets files.
func csvFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"csv"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeDatetimes offers a few --to-datetime values in the accepted
// format: an hour ago, the start of today (UTC) and now.
func completeDatetimes(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	const layout = "2006-01-02T15:04:05.000Z07:00"
	now := time.Now().UTC().Truncate(time.Second)
	day := now.Truncate(24 * time.Hour)
	return withPrefix([]string{
		now.Add(-time.Hour).Format(layout) + "\tan hour ago",
		day.Format(layout) + "\tthe start of today (UTC)",
		now.Format(layout) + "\tnow",
	}, toComplete), noFiles
}

// completeReceipts offers the receipts in the receipts folder that undo
// takes, newest first, then lets the shell complete any other file. A
// member removal's receipt records who was removed, not offsets: undo
// refuses it, so it is not offered.
func completeReceipts(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, noFiles
	}
	dir, err := receipt.DefaultDir()
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || removalReceipt(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if strings.HasPrefix(p, toComplete) && format.Sanitize(p) == p {
			files = append(files, file{p, info.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.path
	}
	if len(out) == 0 {
		return nil, cobra.ShellCompDirectiveDefault
	}
	return out, noFiles | cobra.ShellCompDirectiveKeepOrder
}

// removalReceipt reports whether a receipt's file name (receipt.WriteRecord:
// the time, the action, the group) is a member removal's.
func removalReceipt(name string) bool {
	const stamp = len("20060102T150405.000Z-")
	return len(name) > stamp && strings.HasPrefix(name[stamp:], receipt.ActionRemoveMembers+"-")
}

// completeContexts offers the configuration file's context names, without
// connecting to anything.
func (a *app) completeContexts(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	cfg, err := a.config()
	if err != nil {
		return nil, noFiles
	}
	var out []string
	for _, name := range cfg.Names() {
		if strings.HasPrefix(name, toComplete) && typable(name) {
			out = append(out, name)
		}
	}
	return out, noFiles
}

// typable reports whether a broker-supplied name can be offered to the
// shell as it is: no control characters or invalid UTF-8 (Sanitize leaves
// it alone), no tab or newline (the completion protocol's separators) and
// no leading dash. Such names are named with --group-base64 instead.
func typable(s string) bool {
	return s != "" && format.Sanitize(s) == s && !strings.ContainsAny(s, "\t\n") && !strings.HasPrefix(s, "-")
}

// completionClient connects for one completion, within completionTimeout.
// It returns nil when the connection cannot be made.
func (a *app) completionClient(ctx context.Context) (*kafka.Client, context.Context, func()) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, completionTimeout)
	c, err := a.cluster()
	if err != nil {
		cancel()
		return nil, nil, nil
	}
	if c.RequestTimeout <= 0 || c.RequestTimeout > completionTimeout {
		c.RequestTimeout = completionTimeout
	}
	cl, err := kafka.Connect(ctx, c)
	if err != nil {
		cancel()
		return nil, nil, nil
	}
	return cl, ctx, func() { cl.Close(); cancel() }
}

// groupRank says whether a command takes a listed group (ok) and where it
// comes in the completions (lower first).
type groupRank func(kafka.ListedGroup) (rank int, ok bool)

func anyGroup(kafka.ListedGroup) (int, bool) { return 0, true }

// emptyFirst ranks Empty groups (the ones a reset or delete takes now)
// before the others.
func emptyFirst(g kafka.ListedGroup) (int, bool) {
	if g.State == kafka.StateEmpty {
		return 0, true
	}
	return 1, true
}

// supports keeps the groups whose type supports action and that have
// members (state other than Empty or Dead).
func supports(action kafka.Action) groupRank {
	return func(g kafka.ListedGroup) (int, bool) {
		if g.Type.Check(g.Name, action) != nil || g.State == kafka.StateEmpty || g.State == kafka.StateDead {
			return 0, false
		}
		return 0, true
	}
}

// completeGroups completes group names the command accepts, from one
// ListGroups. several says the command takes more than one group (names
// already given are not offered again).
func (a *app) completeGroups(rank groupRank, several bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if !several && (len(args) > 0 || cmd.Flags().Changed("group-base64")) {
			return nil, noFiles
		}
		cl, ctx, done := a.completionClient(cmd.Context())
		if cl == nil {
			return nil, noFiles
		}
		defer done()
		listed, err := cl.ListedGroups(ctx)
		if err != nil && len(listed) == 0 {
			return nil, noFiles
		}
		type ranked struct {
			text string
			rank int
		}
		var found []ranked
		for _, g := range listed {
			r, ok := rank(g)
			if !ok || !strings.HasPrefix(g.Name, toComplete) || !typable(g.Name) || slices.Contains(args, g.Name) {
				continue
			}
			desc := format.Sanitize(g.State + " " + string(g.Type) + " group")
			found = append(found, ranked{g.Name + "\t" + desc, r})
		}
		sort.SliceStable(found, func(i, j int) bool { return found[i].rank < found[j].rank })
		out := make([]string, len(found))
		for i, f := range found {
			out[i] = f.text
		}
		return out, noFiles | cobra.ShellCompDirectiveKeepOrder
	}
}

// completeTopics completes --topic: topic names, and after "TOPIC:" its
// partitions (the next of a comma-separated list). partitions says the
// command needs them (peek), so a topic is offered as "TOPIC:" with no
// space after it.
func (a *app) completeTopics(partitions bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		cl, ctx, done := a.completionClient(cmd.Context())
		if cl == nil {
			return nil, noFiles
		}
		defer done()
		topics, err := cl.TopicPartitions(ctx)
		if err != nil {
			return nil, noFiles
		}
		if topic, parts, ok := strings.Cut(toComplete, ":"); ok {
			n, known := topics[topic]
			if !known {
				return nil, noFiles
			}
			done, last := "", parts
			if i := strings.LastIndexByte(parts, ','); i >= 0 {
				done, last = parts[:i+1], parts[i+1:]
			}
			given := strings.Split(done, ",")
			var out []string
			for p := range n {
				s := strconv.Itoa(int(p))
				if strings.HasPrefix(s, last) && !slices.Contains(given, s) {
					out = append(out, topic+":"+done+s)
				}
			}
			return out, noFiles | cobra.ShellCompDirectiveKeepOrder
		}
		var out []string
		for _, name := range sortedTopics(topics) {
			if !strings.HasPrefix(name, toComplete) || !typable(name) || strings.HasPrefix(name, "__") && !strings.HasPrefix(toComplete, "_") {
				continue
			}
			if partitions {
				name += ":"
			}
			out = append(out, name)
		}
		if partitions {
			return out, noFiles | cobra.ShellCompDirectiveNoSpace
		}
		return out, noFiles
	}
}

func sortedTopics(m map[string]int32) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// memberField picks what a member flag completes: the ids of a member and
// a short description of it.
type memberField func(m kafka.Member) []string

func memberIDField(m kafka.Member) []string {
	return []string{m.MemberID + "\t" + memberDesc(m)}
}

func instanceIDField(m kafka.Member) []string {
	if m.InstanceID == "" {
		return nil
	}
	return []string{m.InstanceID + "\t" + memberDesc(m)}
}

// leavingField are what simulate --leave takes: member ids and instance ids.
func leavingField(m kafka.Member) []string {
	return append(memberIDField(m), instanceIDField(m)...)
}

func memberDesc(m kafka.Member) string {
	return format.Sanitize(m.ClientID + " " + m.Host)
}

// completeMembers completes the ids of the members of the command's group
// (its argument or --group-base64), the next of a comma-separated list.
func (a *app) completeMembers(field memberField) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var b64 []string
		if f := cmd.Flags().Lookup("group-base64"); f != nil && f.Changed {
			b64, _ = cmd.Flags().GetStringArray("group-base64")
		}
		// cobra may parse the flags twice, repeating an array flag.
		groups, err := withGroupBase64(args, uniqueNames(b64))
		if err != nil || len(groups) != 1 {
			return nil, noFiles
		}
		cl, ctx, done := a.completionClient(cmd.Context())
		if cl == nil {
			return nil, noFiles
		}
		defer done()
		snap, err := cl.PollGroups(ctx, groups[0])
		if err != nil {
			return nil, noFiles
		}
		g, ok := snap.Group(groups[0])
		if !ok {
			return nil, noFiles
		}
		doneList, last := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			doneList, last = toComplete[:i+1], toComplete[i+1:]
		}
		given := strings.Split(doneList, ",")
		var out []string
		for _, m := range g.Members {
			for _, c := range field(m) {
				id, _, _ := strings.Cut(c, "\t")
				if typable(id) && strings.HasPrefix(id, last) && !slices.Contains(given, id) {
					out = append(out, doneList+c)
				}
			}
		}
		return out, noFiles
	}
}

// silenceCompletion sends whatever a completion request would print on
// stderr nowhere: the shell shows a completion's stderr on the terminal.
func silenceCompletion(args []string, stderr io.Writer) io.Writer {
	if completionRequest(args) {
		return io.Discard
	}
	return stderr
}
