//go:build race

package verdictbench

// raceDetector reports that the tests run under the race detector, which
// makes the guard's simulation about fifteen times slower: the guard then
// runs the published seed only (TestBenchmarkHolds).
const raceDetector = true
