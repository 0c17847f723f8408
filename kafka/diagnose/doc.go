// Package diagnose names the likely cause of a group's lag from evidence:
// the snapshot, the lag history's verdicts, the rebalance timeline and a
// few bounded extra reads (last stable offsets, open transactions, topic
// retention, the record at a stalled commit). The rules are pure functions
// of that input, so `kgroups diagnose` and the UI's Diagnosis tab, which
// feed it the same data, report the same findings. Every read it makes is
// a read: nothing here joins a group, commits or aborts.
package diagnose
