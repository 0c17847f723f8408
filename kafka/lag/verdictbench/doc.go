// Package verdictbench scores kgroups' lag verdicts against ground truth.
//
// It simulates consumer groups poll by poll: producers writing records with
// known timestamps, members consuming them at a known speed and committing
// on a known rhythm (per record, every few seconds, after each batch, on
// checkpoints minutes apart, or never), with stalls, departures, restarts,
// resets and membership changes. Every poll is labelled with the verdict a
// careful human would give, knowing what the simulation knows (Truth), and
// the same poll is fed to the real kafka/lag code as an observer sees it:
// the UI's and serve's Tracker, polling continuously, and `kgroups health`,
// a fresh History over each of its windows. Run compares the two and
// reports a confusion matrix (truth × verdict), the share of polls judged,
// the time to the right verdict after each change of truth, and verdict
// changes per group-hour.
//
// The scenarios are generated from a seed over the dimensions that break
// rules fitted to one case (see Scenarios); nothing in them is tuned to the
// rules, and the labels come from the simulation's state, never from the
// rules' answer. `go run ./cmd/verdictbench` prints the report that
// docs/lag-health.md publishes; TestBenchmarkHolds fails when a cell of the
// matrix gets worse than the recorded baseline, on the published seed and
// on two that the report does not publish.
package verdictbench
