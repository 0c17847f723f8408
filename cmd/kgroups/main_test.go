package main

import (
	"os"
	"testing"
)

// TestMain removes the kgroups binary the end-to-end tests share
// (buildKgroups) once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
