// Package reset plans and applies changes to a consumer group's committed
// offsets: the scenarios of kafka-consumer-groups.sh --reset-offsets, undo
// from a receipt, and deleting groups or their offsets.
//
// Every change follows one path, so that nothing is lost and nothing happens
// by surprise: plan (read the group and the logs, compute every partition's
// new offset, say where it was clamped) -> preview -> confirm -> write a
// receipt of the offsets before and after -> apply (only to an Empty group or
// one that does not exist, re-checked right before) -> re-read and verify
// each partition. Planning only reads: it never joins the group or contacts
// its members.
//
// The parsers (datetimes, durations, topic scopes, CSV) and Build, the
// planner proper, are pure functions so that they can be table-tested and
// fuzzed; Prepare, Apply and the delete functions talk to the cluster.
package reset
