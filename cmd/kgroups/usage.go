package main

import "strings"

// isCobraUsageError recognises the argument errors cobra returns as plain
// errors (unknown command, wrong number of args).
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "requires at most", "invalid argument", "flag needs an argument"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
