//go:build !linux

package metrics

// processFamilies is the process's families: none but on Linux, where
// /proc gives them.
func processFamilies() []*Family { return nil }
