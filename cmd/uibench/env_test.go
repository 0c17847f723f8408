package main

import (
	"slices"
	"strings"
	"testing"
)

func TestParseEnv(t *testing.T) {
	got, err := parseEnv("GOMEMLIMIT=1GiB,GOGC=200")
	if err != nil || !slices.Equal(got, []string{"GOMEMLIMIT=1GiB", "GOGC=200"}) {
		t.Fatalf("parseEnv = %q, %v", got, err)
	}
	if got, err := parseEnv(""); err != nil || got != nil {
		t.Fatalf("empty: %q, %v", got, err)
	}
	for _, bad := range []string{"GOGC", "=1", "GOGC=1,,A=2"} {
		if _, err := parseEnv(bad); err == nil || !strings.Contains(err.Error(), "want NAME=VALUE pairs") {
			t.Errorf("parseEnv(%q) error %v, want one naming the accepted form", bad, err)
		}
	}
}
