package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

var update = flag.Bool("update", false, "rewrite README.md's support table from kafka.Features()")

const (
	supportBegin = "<!-- support table: kafka.Features(), checked by TestSupportTable -->\n"
	supportEnd   = "<!-- end of support table -->\n"
)

// supportTable is the README's table of what needs which Kafka release,
// made from kafka.Features(): the releases come from kversion, and
// TestVersionMatrix checks each against what the brokers of every release
// in the matrix advertise.
func supportTable() string {
	var b strings.Builder
	b.WriteString("| feature | request | first Kafka release | on older brokers |\n| --- | --- | --- | --- |\n")
	for _, f := range kafka.Features() {
		b.WriteString("| " + f.Name + " | " + f.Request() + " | " + f.Kafka() + " | " + f.Below + " |\n")
	}
	return b.String()
}

// TestSupportTable holds README.md's support table to kafka.Features();
// -update rewrites it.
func TestSupportTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, supportBegin), strings.Index(readme, supportEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the support table's markers %q and %q", supportBegin, supportEnd)
	}
	got, want := readme[i+len(supportBegin):j], supportTable()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile("../../README.md", []byte(readme[:i+len(supportBegin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's support table is not kafka.Features() (go test -run TestSupportTable -update rewrites it):\n--- README ---\n%s--- want ---\n%s", got, want)
}
