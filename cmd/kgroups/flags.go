package main

import (
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
