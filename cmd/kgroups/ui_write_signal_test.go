package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/write"
)

// TestWritesInFlightAtTheSignal: the writes in flight when the run's
// context ends are those reported, even when they end (cut short) before
// the UI returns: named with their receipt, exit 4, as the CLI and the
// guard say it.
func TestWritesInFlightAtTheSignal(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	began := make(chan struct{})
	go func() { <-began; cancel(signalError{syscall.SIGTERM}) }()
	flights, err := writesInFlightAt(ctx, func() error {
		end := write.Begin("reset of group billing", "/state/receipts/r 1.json")
		close(began)
		<-ctx.Done()
		time.Sleep(10 * time.Millisecond) // the write notices, then ends
		end()
		return nil
	})
	if err != nil || len(flights) != 1 {
		t.Fatalf("flights %v, err %v", flights, err)
	}
	var stderr strings.Builder
	code := exitCode(&stderr, interruptedWrites(ctx, flights))
	want := "kgroups: terminated while the reset of group billing was in flight: its outcome is unknown; its receipt is /state/receipts/r 1.json (check the group; kgroups undo '/state/receipts/r 1.json' restores what it recorded)\n"
	if code != exitUnknown || stderr.String() != want {
		t.Fatalf("exit %d\n%q\nwant\n%q", code, stderr.String(), want)
	}
	// A run that no signal ended reports nothing.
	flights, err = writesInFlightAt(context.Background(), func() error { return nil })
	if flights != nil || err != nil {
		t.Fatalf("no signal: %v %v", flights, err)
	}
}

// TestSignalEndsAUIWriteInFlight: SIGTERM while the UI's reset waits on
// an OffsetCommit that never gets an answer ends kgroups with the
// terminal restored, exit 4, and the same words as the CLI: the outcome
// is unknown, and the receipt.
func TestSignalEndsAUIWriteInFlight(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	bin := buildKgroups(t)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Produce(t, "orders", 0, 5, time.Time{})
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: 4}})
	r := startTUI(t, dir, bin, c)
	r.waitFor("the groups screen", hasLines(regexp.MustCompile(`^▶ billing\s+classic\s+Empty\s`)))
	r.send("Enter")
	r.waitFor("the group", hasLines(regexp.MustCompile(`^billing · Empty · classic`)))
	r.send("R")
	r.waitFor("the wizard", func(sc string) bool { return strings.Contains(sc, "step 1 of 5: scenario") })
	committing := hang(t, c, kmsg.OffsetCommit)
	// Each key once its step is drawn: the preview is planned off the
	// UI loop, and a key pressed before it is shown is not its.
	r.send("1") // to the earliest; one partition, so no scope to choose
	r.waitFor("the preview", func(sc string) bool {
		return strings.Contains(sc, "step 3 of 5: preview") && strings.Contains(sc, "1 of 1 partition change")
	})
	r.send("Enter")
	r.waitFor("the confirmation", func(sc string) bool { return strings.Contains(sc, "Apply? y to apply") })
	r.send("y")
	state := filepath.Join(dir, "state")
	receipt := ""
	kafkatest.Eventually(t, "the receipt to be written", func() bool {
		_ = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && strings.Contains(filepath.Base(p), "billing") {
				receipt = p
			}
			return nil
		})
		return receipt != ""
	})
	// The commit is sent after the receipt: wait until the cluster holds
	// it, so the signal lands on a write in flight.
	select {
	case <-committing:
	case <-time.After(e2eWait):
		t.Fatalf("the UI sent no OffsetCommit; it shows:\n%s", r.screen())
	}
	status := r.signal(syscall.SIGTERM)
	if want := fmt.Sprintf("EXIT=%d", exitUnknown); status != want {
		t.Errorf("exit status %q, want %q", status, want)
	}
	r.restored()
	// The terminal wraps the report where its width falls, which moves
	// with the length of the temporary directory's name, and a capture
	// drops the space that ends a wrapped line: words are compared, not
	// the spaces between them.
	want := unspaced("kgroups: terminated while the reset of group billing was in flight: its outcome is unknown; its receipt is " + receipt)
	sc := r.waitFor("the report", func(sc string) bool { return strings.Contains(unspaced(sc), want) })
	if !strings.Contains(unspaced(sc), unspaced("kgroups undo "+receipt+" restores what it recorded)")) {
		t.Errorf("screen:\n%s", sc)
	}
}

// unspaced is s without its spaces and line breaks.
func unspaced(s string) string { return strings.Join(strings.Fields(s), "") }
