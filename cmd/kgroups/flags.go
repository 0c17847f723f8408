package main

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/views/columns"
)

// Output formats of the commands' -o.
const (
	formatTable = "table"
	formatJSON  = "json"
	formatCSV   = "csv" // the offsets file of --export and --from-file
)

// addFormatFlag declares -o/--output the same way on every read command.
func addFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVarP(format, "output", "o", formatTable, "output format: table or json")
	completeFlag(cmd, "output", fixed(formatTable, formatJSON))
}

// addWideFlag declares --wide on a command whose tables cut long cells.
func addWideFlag(cmd *cobra.Command, wide *bool) {
	cmd.Flags().BoolVar(wide, "wide", false, fmt.Sprintf("show long ids and hosts whole in tables (otherwise cut at %d cells, hosts and client ids at %d)", columns.IDMax, columns.HostMax))
}

// parseFormat validates -o, so a typo is a usage error rather than a
// silently different output that breaks a script later.
func parseFormat(s string) (string, error) {
	switch f := strings.ToLower(strings.TrimSpace(s)); f {
	case formatTable, formatJSON:
		return f, nil
	}
	return "", usageErrorf("invalid --output %q: accepted values are %s, %s", s, formatTable, formatJSON)
}

// parseWriteFormat validates -o for the writing commands, which add csv (the
// offsets file) to table and json. --export is -o csv; outputGiven says
// whether -o was given with it.
func parseWriteFormat(format string, export, outputGiven bool) (string, error) {
	f := strings.ToLower(strings.TrimSpace(format))
	switch f {
	case formatTable, formatJSON, formatCSV:
	default:
		return "", usageErrorf("invalid --output %q: accepted values are %s, %s, %s", format, formatTable, formatJSON, formatCSV)
	}
	if export {
		if outputGiven && f != formatCSV {
			return "", usageErrorf("--export prints CSV; it cannot be combined with -o %s", f)
		}
		f = formatCSV
	}
	return f, nil
}

// addGroupBase64Flag declares --group-base64: a group named by the exact
// bytes of its id in base64, as JSON documents give them (groupBase64) for
// an id that is not valid UTF-8, or that cannot be typed. several says
// whether the command takes more than one group (then it is repeatable).
func addGroupBase64Flag(cmd *cobra.Command, b64 *[]string, several bool) {
	usage := "the group whose id is these bytes, in base64 (the groupBase64 of -o json), instead of its name"
	if several {
		usage = "a group whose id is these bytes, in base64 (the groupBase64 of -o json), in addition to or instead of GROUP (repeatable)"
	}
	cmd.Flags().StringArrayVar(b64, "group-base64", nil, usage)
	completeFlag(cmd, "group-base64", none)
}

// withGroupBase64 returns args followed by the groups --group-base64
// names, decoded to their exact bytes. Standard and URL-safe base64, with
// or without padding, are accepted; anything else is a usage error.
func withGroupBase64(args, b64 []string) ([]string, error) {
	if len(b64) == 0 {
		return args, nil
	}
	out := append([]string(nil), args...)
	for _, s := range b64 {
		name, ok := decodeBase64(strings.TrimSpace(s))
		if !ok {
			return nil, usageErrorf("invalid --group-base64 %q: give the group id's bytes in base64, as the groupBase64 field of -o json", s)
		}
		if name == "" {
			return nil, usageErrorf("invalid --group-base64 %q: a group name cannot be empty", s)
		}
		out = append(out, name)
	}
	return out, nil
}

func decodeBase64(s string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// groupNames validates group names given as arguments and drops repeats.
func groupNames(args []string) ([]string, error) {
	for _, name := range args {
		if name == "" {
			return nil, usageErrorf("a group name cannot be empty")
		}
	}
	return uniqueNames(args), nil
}

// uniqueNames drops repeated names, keeping the order given.
func uniqueNames(names []string) []string {
	seen := make(map[string]bool, len(names))
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
