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

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
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

// addCompletions gives kgroups' commands and flags their dynamic
// completions: group names filtered by what each command accepts, context
// names from the configuration file, topics and topic:partition, member and
// instance ids, and the values of the scenario and format flags. Reads of
// the cluster are bounded by completionTimeout, and any failure completes
// nothing.
func addCompletions(root *cobra.Command, a *app) {
	flag := func(c *cobra.Command, name string, f cobra.CompletionFunc) {
		if c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, f)
		}
	}
	_ = root.RegisterFlagCompletionFunc("context", a.completeContexts)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "describe", "health", "diagnose":
			c.ValidArgsFunction = a.completeGroups(anyGroup, true)
		case "peek":
			c.ValidArgsFunction = a.completeGroups(anyGroup, false)
			flag(c, "topic", a.completeTopics(true))
			flag(c, "format", fixed(format.ValueFormats...))
		case "reset":
			c.ValidArgsFunction = a.completeGroups(emptyFirst, false)
			flag(c, "topic", a.completeTopics(false))
			flag(c, "to-datetime", completeDatetimes)
			flag(c, "by-duration", fixed("PT5M\t5 minutes", "PT15M\t15 minutes", "PT30M\t30 minutes", "PT1H\t1 hour", "PT6H\t6 hours", "P1D\t1 day", "P7D\t7 days"))
			flag(c, "shift-by", fixed("-1\tone record back", "-100\t100 records back", "-1000\t1000 records back", "100\t100 records forward"))
			flag(c, "to-offset", none)
			flag(c, "from-file", csvFiles)
			flag(c, "output", fixed(formatTable, formatJSON, formatCSV))
		case "delete-offsets":
			c.ValidArgsFunction = a.completeGroups(emptyFirst, false)
			flag(c, "topic", a.completeTopics(false))
		case "delete":
			c.ValidArgsFunction = a.completeGroups(emptyFirst, true)
		case "rebalance":
			c.ValidArgsFunction = a.completeGroups(supports(kafka.ActionRebalance), false)
			flag(c, "member", a.completeMembers(memberIDField))
			flag(c, "instance", a.completeMembers(instanceIDField))
			flag(c, "reason", none)
		case "simulate":
			c.ValidArgsFunction = a.completeGroups(supports(kafka.ActionSimulate), false)
			flag(c, "leave", a.completeMembers(leavingField))
			flag(c, "join", fixed("1", "2", "3"))
			flag(c, "assignor", fixed(
				rebalance.AssignorRange+"\teager: a contiguous range of each topic per member",
				rebalance.AssignorRoundRobin+"\teager: partitions dealt out one by one",
				rebalance.AssignorSticky+"\teager: keeps owners where balance allows",
				rebalance.AssignorCooperativeSticky+"\tincremental: moves only what balance needs"))
		case "tui":
			flag(c, "group", a.completeGroups(anyGroup, false))
		case "list":
			flag(c, "state", commaList(groupStates...))
			var types []string
			for _, t := range groupTypes {
				types = append(types, string(t))
			}
			flag(c, "type", commaList(types...))
		case "undo":
			c.ValidArgsFunction = completeReceipts
			flag(c, "output", fixed(formatTable, formatJSON, formatCSV))
		case "version":
			flag(c, "output", fixed("text", formatJSON))
		case "config":
			for _, sub := range c.Commands() {
				if sub.Name() == "use" {
					sub.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
						if len(args) > 0 {
							return nil, noFiles
						}
						return a.completeContexts(cmd, args, toComplete)
					}
				}
			}
		}
		// Registered above for a command whose values differ, these
		// are refused (already registered) and the first one holds.
		flag(c, "fail-on", fixed("WARN", "ERR"))
		flag(c, "output", fixed(formatTable, formatJSON))
		flag(c, "group-base64", none)
	}
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

// completeReceipts offers the receipts in the receipts folder, newest
// first, then lets the shell complete any other file.
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
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
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
