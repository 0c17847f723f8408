package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newResetCmd) }

// scenarioFlags are reset's scenario flags, in help order; exactly one must
// be given.
var scenarioFlags = []string{"to-earliest", "to-latest", "to-current", "to-offset", "shift-by", "to-datetime", "by-duration", "from-file"}

type resetFlags struct {
	toEarliest, toLatest, toCurrent               bool
	toOffset, shiftBy, toDatetime, byDuration, ff string
	allTopics                                     bool
	topics                                        []string
	newGroup                                      bool
	export                                        bool
	format                                        string
	write                                         writeFlags
	b64                                           []string
}

// resetOptions is a validated `kgroups reset`.
type resetOptions struct {
	group    string
	scenario reset.Scenario
	scope    reset.Scope
	newGroup bool
	format   string
	write    writeFlags
}

func newResetCmd(a *app) *cobra.Command {
	var f resetFlags
	cmd := &cobra.Command{
		Use:   "reset GROUP <scenario> (--all-topics | --topic T[:P,...]...) [--new-group] [--execute] [--export] [--wide] [-o table|json|csv]",
		Short: "Seek a group's committed offsets: preview, then apply with a receipt",
		Long: `Reset a consumer group's committed offsets as kafka-consumer-groups.sh
--reset-offsets does, with the same scenarios and rules, and more safety.

Scenario (exactly one):
  --to-earliest        the log start
  --to-latest          the log end
  --to-current         the committed offset (the log end where there is none)
  --to-offset N        offset N
  --shift-by N         the committed offset plus N (negative to go back);
                       every partition needs a commit
  --to-datetime T      the first record at or after T: yyyy-MM-ddTHH:mm:ss.SSS with
                       an optional zone (Z, +01:00, +0100; none means UTC) or
                       RFC 3339; the log end where no record is that recent
  --by-duration D      the same, for now minus D: ISO-8601 (PT30M, P1DT2H)
                       or Go (90m, 1h30m)
  --from-file F        offsets from a CSV file as --export writes it
                       (topic,partition,offset or group,topic,partition,offset;
                       no header; - reads standard input)
--to-offset, --shift-by and --from-file are clamped to [log start, log end],
and a NOTE says so.

Share groups (KIP-932) have a start offset per partition instead of a
commit; kgroups sets it with AlterShareGroupOffsets, with the same preview,
receipt, Empty check and verification. They accept --to-earliest,
--to-latest, --to-datetime (as kafka-share-groups.sh does), --by-duration,
--to-offset and --from-file; --to-current and --shift-by act on a committed
offset and are refused.

Scope: --all-topics (every partition the group has a commit for) or one or
more --topic TOPIC / --topic TOPIC:0,2. --from-file needs no scope; given
one, it keeps only the file's rows within it.

Without --execute this is a dry run: it prints the plan and changes nothing.
Planning only reads; it never joins the group or contacts its members. The
table has the Kafka tool's GROUP TOPIC PARTITION NEW-OFFSET, then
CURRENT-OFFSET LOG-START LOG-END DELTA NOTE; a summary of how many records
will be consumed again or skipped goes to stderr. --export prints the new
offsets as CSV instead, for --from-file later; with --to-current they are
the committed offsets as they are, to keep before a change.

--execute applies the plan, only if the group is Empty (or does not exist
and --new-group is given), re-checked right before. It first writes a
receipt of every offset before and after to
$XDG_STATE_HOME/kgroups/receipts/ (no receipt, no change), then commits,
then re-reads each partition and reports it verified (ok), refused by the
broker, or of unknown outcome (exit 0, 1 or 4; see 'Global flags and
exit codes' in docs/cli.md). 'kgroups undo RECEIPT' puts the offsets
back. A read-only context refuses --execute; a protected one also needs
--confirm GROUP.`,
		Example: `  kgroups reset orders --to-earliest --all-topics
  kgroups reset orders --shift-by -100 --topic payments:0,2
  kgroups reset orders --to-datetime 2024-03-01T09:30:00.000+01:00 --topic payments --execute
  kgroups reset orders --to-current --all-topics --export > before.csv
  kgroups reset orders --by-duration PT30M --all-topics --execute
  kgroups reset orders --from-file before.csv --execute`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, f.b64)
			if err != nil {
				return err
			}
			o, err := parseReset(cmd, args, &f, a.stdin)
			if err != nil {
				return err
			}
			return runReset(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.toEarliest, "to-earliest", false, "reset to the log start")
	fs.BoolVar(&f.toLatest, "to-latest", false, "reset to the log end")
	fs.BoolVar(&f.toCurrent, "to-current", false, "reset to the committed offset (log end where there is none)")
	fs.StringVar(&f.toOffset, "to-offset", "", "reset to offset `N`, clamped to the log")
	fs.StringVar(&f.shiftBy, "shift-by", "", "move the committed offset by `N` (negative to go back), clamped to the log")
	fs.StringVar(&f.toDatetime, "to-datetime", "", "reset to the first record at or after `T` (yyyy-MM-ddTHH:mm:ss.SSS[zone] or RFC 3339)")
	fs.StringVar(&f.byDuration, "by-duration", "", "reset to the first record at or after now minus `D` (PnDTnHnMn.nS or 90m)")
	fs.StringVar(&f.ff, "from-file", "", "reset to the offsets in CSV `FILE` (topic,partition,offset; - for stdin)")
	fs.BoolVar(&f.allTopics, "all-topics", false, "scope: every partition the group has a commit for")
	fs.StringArrayVar(&f.topics, "topic", nil, "scope: `TOPIC` or TOPIC:P,P,... (repeatable)")
	fs.BoolVar(&f.newGroup, "new-group", false, "allow a group that does not exist yet (--execute creates its offsets)")
	fs.BoolVar(&f.export, "export", false, "print the new offsets as CSV (topic,partition,offset) for --from-file")
	fs.StringVarP(&f.format, "output", "o", formatTable, "output format: table, json or csv")
	addWriteFlags(cmd, &f.write, "apply the reset")
	addGroupBase64Flag(cmd, &f.b64, false)
	cmd.ValidArgsFunction = a.completeGroups(emptyFirst, false)
	completeFlag(cmd, "topic", a.completeTopics(false))
	completeFlag(cmd, "to-datetime", completeDatetimes)
	completeFlag(cmd, "by-duration", fixed("PT5M\t5 minutes", "PT15M\t15 minutes", "PT30M\t30 minutes", "PT1H\t1 hour", "PT6H\t6 hours", "P1D\t1 day", "P7D\t7 days"))
	completeFlag(cmd, "shift-by", fixed("-1\tone record back", "-100\t100 records back", "-1000\t1000 records back", "100\t100 records forward"))
	completeFlag(cmd, "to-offset", none)
	completeFlag(cmd, "from-file", csvFiles)
	completeFlag(cmd, "output", fixed(formatTable, formatJSON, formatCSV))
	return cmd
}

// parseReset validates reset's arguments before anything connects.
func parseReset(cmd *cobra.Command, args []string, f *resetFlags, stdin io.Reader) (resetOptions, error) {
	o := resetOptions{newGroup: f.newGroup, write: f.write}
	if len(args) != 1 || args[0] == "" {
		return o, usageErrorf("reset needs exactly one group name (got %d arguments)", len(args))
	}
	o.group = args[0]
	var err error
	if o.scenario, err = parseScenario(cmd, f, stdin); err != nil {
		return o, err
	}
	if o.scope, err = reset.ParseScope(f.allTopics, f.topics); err != nil {
		return o, usageError{err}
	}
	if o.scenario.NeedsScope() && o.scope.IsZero() {
		return o, usageErrorf("reset needs a scope: --all-topics, or one or more --topic TOPIC[:P,...]")
	}
	o.format, err = parseWriteFormat(f.format, f.export, cmd.Flags().Changed("output"))
	return o, err
}

func runReset(ctx context.Context, a *app, o resetOptions) error {
	check := func(c config.Cluster) error { return checkWrite(c, "reset", o.write, o.group) }
	return a.connected(ctx, check, func(cl *kafka.Client, c config.Cluster) error {
		p, err := reset.Prepare(ctx, cl, reset.Request{Group: o.group, Scenario: o.scenario, Scope: o.scope, NewGroup: o.newGroup})
		if err != nil {
			return a.withConnection(c, withSimilar(ctx, cl, err))
		}
		return a.showPlan(ctx, cl, c, p, o.write, o.format)
	})
}

// parseScenario checks that exactly one scenario flag was given and reads
// its value. Every bad value is a usage error that says what is accepted.
func parseScenario(cmd *cobra.Command, f *resetFlags, stdin io.Reader) (reset.Scenario, error) {
	var given []string
	for _, name := range scenarioFlags {
		if cmd.Flags().Changed(name) {
			given = append(given, "--"+name)
		}
	}
	switch len(given) {
	case 0:
		return reset.Scenario{}, usageErrorf("reset needs a scenario: one of --%s", strings.Join(scenarioFlags, ", --"))
	case 1:
	default:
		return reset.Scenario{}, usageErrorf("give exactly one scenario, not %s", strings.Join(given, " and "))
	}
	var sc reset.Scenario
	switch given[0] {
	case "--to-earliest":
		sc.Kind = reset.ToEarliest
	case "--to-latest":
		sc.Kind = reset.ToLatest
	case "--to-current":
		sc.Kind = reset.ToCurrent
	case "--to-offset":
		n, err := reset.ParseOffset(f.toOffset)
		if err != nil {
			return sc, usageErrorf("invalid --to-offset %q: give a non-negative whole number, e.g. 1500", f.toOffset)
		}
		sc.Kind, sc.Offset = reset.ToOffset, n
	case "--shift-by":
		n, err := reset.ParseShift(f.shiftBy)
		if err != nil {
			return sc, usageError{fmt.Errorf("--shift-by: %w", err)}
		}
		sc.Kind, sc.Shift = reset.ShiftBy, n
	case "--to-datetime":
		t, err := reset.ParseDatetime(f.toDatetime)
		if err != nil {
			return sc, usageError{fmt.Errorf("--to-datetime: %w", err)}
		}
		sc.Kind, sc.Time = reset.ToDatetime, t
	case "--by-duration":
		d, err := reset.ParseDuration(f.byDuration)
		if err != nil {
			return sc, usageError{fmt.Errorf("--by-duration: %w", err)}
		}
		sc.Kind, sc.Duration = reset.ByDuration, d
	case "--from-file":
		rows, err := readOffsetsFile(cmd.Context(), f.ff, stdin)
		if err != nil {
			return sc, err
		}
		sc.Kind, sc.Source, sc.Rows = reset.FromFile, f.ff, rows
	}
	return sc, nil
}

// readOffsetsFile reads --from-file; "-" is standard input. The read is
// capped (config.MaxCSVBytes) and stops when ctx is done (Ctrl+C, SIGTERM).
func readOffsetsFile(ctx context.Context, path string, stdin io.Reader) ([]reset.FileRow, error) {
	if path == "" {
		return nil, usageErrorf("--from-file needs a file name (or - for standard input)")
	}
	var rows []reset.FileRow
	var err error
	if path == "-" {
		rows, err = reset.ReadCSV(ctx, stdin, "standard input")
	} else {
		rows, err = reset.ReadCSVFile(ctx, path)
	}
	if err != nil {
		var ce *reset.CSVError
		var tl *config.TooLargeError
		var pe *fs.PathError
		switch {
		case errors.As(err, &ce):
			return nil, usageError{fmt.Errorf("--from-file %s: %w", path, err)}
		case errors.As(err, &tl):
			return nil, usageError{fmt.Errorf("--from-file: %w", err)}
		case errors.As(err, &pe):
			return nil, fmt.Errorf("--from-file: %w", err)
		}
		return nil, fmt.Errorf("--from-file %s: %w", path, err)
	}
	return rows, nil
}

// showPlan prints a plan and, with execute, applies it and prints the
// verified result. The table or JSON goes to stdout; notes, the summary and
// the receipt path go to stderr, so stdout stays parseable.
func (a *app) showPlan(ctx context.Context, cl *kafka.Client, c config.Cluster, p *reset.Plan, write writeFlags, format string) error {
	execute, lay := write.execute, a.layout(write.wide)
	blocked := a.withConnection(c, withSimilar(ctx, cl, p.Blocker()))
	if blocked == nil && p.Scenario.Kind == reset.DeleteOffsets && p.Type != kafka.TypeShare {
		blocked = unsupported(ctx, cl, kafka.FeatureOffsetDelete)
	}
	for _, w := range p.Warnings {
		a.notef("Warning: %s", w)
	}
	if !execute {
		if err := writeResetPlan(a.stdout, p, format, blocked, lay); err != nil {
			return err
		}
		a.notef("%s", summaryLine(p))
		if blocked != nil {
			// The refusal lists the live members on lines of their own:
			// each line is printed (and sanitized) as a line.
			lines := strings.Split(blocked.Error(), "\n")
			a.notef("Note: --execute would be refused now: %s", lines[0])
			for _, l := range lines[1:] {
				a.notef("%s", l)
			}
		}
		a.notef("Dry run: nothing was changed. Add --execute to apply.")
		return nil
	}
	if blocked != nil {
		return blocked
	}
	dir, err := receipt.DefaultDir()
	if err != nil {
		return err
	}
	res, err := reset.Apply(ctx, cl, p, reset.ApplyOptions{ReceiptDir: dir, Context: receiptContext(c), Now: time.Now, Note: a.lockNote})
	if err != nil {
		return a.withConnection(c, err)
	}
	switch format {
	case formatJSON:
		err = render.PlanJSON(a.stdout, p, false, nil, res)
	case formatCSV:
		err = render.OffsetsCSV(a.stdout, p, isTerminal(a.stdout))
	default:
		err = render.Result(a.stdout, res, lay)
	}
	if err != nil {
		return err
	}
	a.notef("%s", summaryLine(p))
	a.notef("Receipt: %s", res.ReceiptPath)
	a.notef("To undo: %s", undoCommand(c, a.selection(), res.ReceiptPath, p.Group))
	return a.writeVerdict(c, p.Group, res.ReceiptPath, "partition", "partitions", "STATUS", res.Tally())
}

// summaryLine is the plan's one-line summary for stderr.
func summaryLine(p *reset.Plan) string {
	if p.Scenario.Kind == reset.DeleteOffsets {
		n, what := len(p.Rows), "committed"
		if p.Type == kafka.TypeShare {
			what = "start"
		}
		if n == 1 {
			return "1 " + what + " offset will be deleted."
		}
		return fmt.Sprintf("%d %s offsets will be deleted.", n, what)
	}
	return p.Summary().String() + "."
}

func writeResetPlan(w io.Writer, p *reset.Plan, format string, blocked error, lay render.Layout) error {
	switch format {
	case formatJSON:
		return render.PlanJSON(w, p, true, blocked, nil)
	case formatCSV:
		return render.OffsetsCSV(w, p, isTerminal(w))
	}
	return render.Plan(w, p, lay)
}
