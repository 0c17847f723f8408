// Package format turns values into the short texts kgroups prints, once for
// the command line and the terminal UI alike: the mark for a missing value,
// offsets, spans of time, time lags with the mark that says how they were
// obtained, rates, counted nouns, display widths, and Sanitize, which makes
// any broker-supplied string safe to write to a terminal.
//
// It is a leaf: it imports no UI framework and no other kgroups package but
// kafka/lag (for the time-lag and catch-up types it formats). Every text that
// came from a broker (group, member, instance and client ids, hosts, topic
// names, error strings, record keys and values) passes through Sanitize
// before it reaches a terminal; JSON output keeps the exact bytes instead.
package format
