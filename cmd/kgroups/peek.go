package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newPeekCmd) }

// peekOptions is a validated `kgroups peek`.
type peekOptions struct {
	req    kafka.PeekRequest
	format string
	show   render.PeekOptions
}

func newPeekCmd(a *app) *cobra.Command {
	var topic, outFormat, valueFormat string
	var count, maxBytes int
	var offset int64
	var b64 []string
	cmd := &cobra.Command{
		Use:   "peek GROUP --topic TOPIC:P[,P...] [-n N] [--offset O] [--format text|json|hex|base64] [--max-bytes B] [-o table|json]",
		Short: "Show the record a group will process next, and the ones after it",
		Long: `Read the record at the group's committed offset on each partition given
(the next record the group will process) and the N-1 after it, with a
consumer that joins no group and commits nothing, so the group is not
disturbed. --offset reads from another offset instead.

Each record shows its offset, timestamp and its type (CreateTime or
LogAppendTime), key, headers, size, its value and, when it was written in a
transaction, whether that transaction committed, aborted or is still open
(a read_committed consumer cannot pass an open one).

Values show as pretty JSON when they parse as a JSON object or array, as
UTF-8 text when they are text, and otherwise as hex with an ASCII gutter;
--format forces text, json, hex or base64. At most --max-bytes of each
value show (64 KiB unless told), with a truncation mark. Everything is made
safe for the terminal; -o json carries the exact bytes (base64 where they
are not UTF-8, with an encoding field saying which).

Errors, each on stderr with exit 1 (records that could be read still
print): no committed offset, a committed offset below the log start (the
record is gone), an offset at or beyond the log end, and an offset that
holds no record (compacted away, or a transaction marker), which names the
offset of the next record.`,
		Example: `  kgroups peek billing --topic orders:3
  kgroups peek billing --topic orders:0,1 -n 5
  kgroups peek billing --topic orders:3 --offset 1200 --format hex
  kgroups peek billing --topic orders:3 -o json | jq -r '.partitions[0].records[0].value'`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return fmt.Errorf("peek reads the records of one group (got %d group names)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, b64)
			if err != nil {
				return err
			}
			o, err := parsePeek(args, topic, count, offset, cmd.Flags().Changed("offset"), outFormat, valueFormat, maxBytes)
			if err != nil {
				return err
			}
			return runPeek(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&topic, "topic", "", "the topic and partitions to read: TOPIC:P[,P...] (ranges such as 0-3 allowed)")
	fs.IntVarP(&count, "count", "n", 1, fmt.Sprintf("records to show per partition, 1 to %d", kafka.MaxPeekRecords))
	fs.Int64Var(&offset, "offset", 0, "read from this offset instead of the group's committed offset")
	fs.StringVar(&valueFormat, "format", "", "show values as text, json, hex or base64 (default: chosen per value)")
	fs.IntVar(&maxBytes, "max-bytes", format.DefaultMaxValueBytes, "show at most this many bytes of each value")
	addGroupBase64Flag(cmd, &b64, false)
	addFormatFlag(cmd, &outFormat)
	cmd.ValidArgsFunction = a.completeGroups(anyGroup, false)
	completeFlag(cmd, "topic", a.completeTopics(true))
	completeFlag(cmd, "count", none)
	completeFlag(cmd, "offset", none)
	completeFlag(cmd, "format", fixed(format.ValueFormats...))
	completeFlag(cmd, "max-bytes", none)
	return cmd
}

// parsePeek validates peek's arguments; every mistake is a usage error that
// says what is accepted.
func parsePeek(args []string, topic string, count int, offset int64, offsetSet bool, outFormat, valueFormat string, maxBytes int) (peekOptions, error) {
	var o peekOptions
	if len(args) != 1 {
		return o, usageErrorf("peek needs exactly one group: kgroups peek GROUP --topic TOPIC:P")
	}
	if args[0] == "" {
		return o, usageErrorf("a group name cannot be empty")
	}
	if strings.TrimSpace(topic) == "" {
		return o, usageErrorf("peek needs --topic TOPIC:P[,P...]: the partitions to read")
	}
	ts, err := reset.ParseTopicScope(topic)
	if err != nil {
		return o, usageErrorf("%v", err)
	}
	if ts.Partitions == nil {
		return o, usageErrorf("invalid --topic %q: name the partitions to read, e.g. %s:0 or %s:0,2", topic, ts.Topic, ts.Topic)
	}
	if count < 1 || count > kafka.MaxPeekRecords {
		return o, usageErrorf("invalid -n %d: give 1 to %d records", count, kafka.MaxPeekRecords)
	}
	if offsetSet && offset < 0 {
		return o, usageErrorf("invalid --offset %d: give an offset of 0 or more", offset)
	}
	if maxBytes < 1 {
		return o, usageErrorf("invalid --max-bytes %d: give 1 or more bytes", maxBytes)
	}
	vf, err := format.ParseValueFormat(valueFormat)
	if err != nil {
		return o, usageErrorf("invalid --format: %v", err)
	}
	if o.format, err = parseFormat(outFormat); err != nil {
		return o, err
	}
	o.req = kafka.PeekRequest{Group: args[0], Topic: ts.Topic, Partitions: ts.Partitions, Offset: kafka.OffsetNext, Count: count}
	if offsetSet {
		o.req.Offset = offset
	}
	o.show = render.PeekOptions{Format: vf, MaxBytes: maxBytes}
	return o, nil
}

func runPeek(ctx context.Context, a *app, o peekOptions) error {
	return a.connected(ctx, nil, func(cl *kafka.Client, _ config.Cluster) error {
		res, err := cl.Peek(ctx, o.req)
		if err != nil {
			return withSimilar(ctx, cl, err)
		}
		if o.format == formatJSON {
			err = render.PeekJSON(a.stdout, res, o.show)
		} else {
			err = render.PeekText(a.stdout, res, o.show)
		}
		if err != nil {
			return err
		}
		failed := false
		for _, p := range res.Partitions {
			if p.Err != nil {
				failed = true
				a.notef("kgroups: %s/%d: %s", p.Topic, p.Partition, p.Err)
			}
		}
		if failed {
			return exitCodeError{code: exitError}
		}
		return nil
	})
}
