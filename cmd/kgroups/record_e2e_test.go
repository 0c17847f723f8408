package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/recording"
)

// TestRecordSurvivesSIGKILL runs the real binary recording a kfake
// group with a live member, kills it with SIGKILL once the file holds
// three polls, and reads the file: every poll it held before the kill is
// still there, whole, and nothing after them but at most one torn poll.
func TestRecordSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary against a kfake cluster")
	}
	bin := buildKgroups(t)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.Produce(t, "orders", 0, 10, zeroTime)
	c.Join(t, "g", []string{"orders"})
	c.WaitStable(t, "g", 1, 3)

	dir := t.TempDir()
	file := filepath.Join(dir, "run.kgrec")
	cmd := exec.Command(bin, "-b", strings.Join(c.Addrs, ","), "--refresh", "1s", "record", "g", "-o", file)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "HOME="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	seen := 0
	kafkatest.Eventually(t, "three polls in the recording", func() bool {
		rec, err := recording.Load(file)
		if err == nil {
			seen = len(rec.Polls)
		}
		return seen >= 3
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	rec, err := recording.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Polls) < seen {
		t.Fatalf("after SIGKILL the file holds %d polls, %d before it", len(rec.Polls), seen)
	}
	for i, p := range rec.Polls {
		g, ok := p.Snapshot.Group("g")
		if p.Snapshot == nil || !ok || len(g.Members) != 1 || len(g.Partitions) != 3 {
			t.Fatalf("poll %d: %+v", i, p)
		}
	}
	t.Logf("%d polls whole after SIGKILL (%d seen before it); torn tail: %v", len(rec.Polls), seen, rec.Torn)
}
