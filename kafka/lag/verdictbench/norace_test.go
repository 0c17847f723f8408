//go:build !race

package verdictbench

// raceDetector: see race_test.go.
const raceDetector = false
