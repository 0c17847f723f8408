package receipt

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var cluster = Cluster{Brokers: []string{"k1:9092", "k2:9092"}}

// TestMain lets the test binary play a second kgroups that takes a lock and
// holds it until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("KGROUPS_TEST_HOLD_LOCK"); dir != "" {
		l, err := LockGroup(context.Background(), dir, cluster, "g")
		if err != nil {
			_, _ = os.Stdout.WriteString("error: " + err.Error() + "\n")
			os.Exit(1)
		}
		_, _ = os.Stdout.WriteString("locked " + l.Path + "\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLockRefusesSecondWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "receipts")
	l, err := LockGroup(context.Background(), dir, cluster, "g")
	if err != nil || l.Note != "" {
		t.Fatalf("first lock: %v, note %q", err, l.Note)
	}
	// Another group, or the same group of another cluster, is not held.
	for _, other := range []struct {
		cluster Cluster
		group   string
	}{{cluster, "h"}, {Cluster{Brokers: []string{"other:9092"}}, "g"}, {Cluster{ID: "other-id", Brokers: cluster.Brokers}, "g"}} {
		o, err := LockGroup(context.Background(), dir, other.cluster, other.group)
		if err != nil {
			t.Fatalf("%v: %v", other, err)
		}
		if err := o.Unlock(); err != nil {
			t.Fatal(err)
		}
	}
	// The brokers' order and case do not matter.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = LockGroup(ctx, dir, Cluster{Brokers: []string{"K2:9092", "k1:9092"}}, "g")
	var le *LockedError
	if !errors.As(err, &le) || le.Holder.PID != os.Getpid() || le.Path != l.Path {
		t.Fatalf("second lock: %v (%#v)", err, le)
	}
	host, _ := os.Hostname()
	if want := `group "g" is being changed by another kgroups (pid ` + strconv.Itoa(os.Getpid()) + " on " + host + ", since "; !strings.HasPrefix(err.Error(), want) ||
		!strings.HasSuffix(err.Error(), "; lock "+l.Path+"): nothing was changed; try again when it has finished") {
		t.Fatalf("refusal = %q", err)
	}
	// A cancelled wait says so.
	cctx, ccancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); ccancel() }()
	if _, err := LockGroup(cctx, dir, cluster, "g"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	// Released, it is free again, with nothing to note.
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := LockGroup(context.Background(), dir, cluster, "g")
	if err != nil || l2.Note != "" {
		t.Fatalf("after unlock: %v, note %q", err, l2.Note)
	}
	if err := l2.Unlock(); err != nil {
		t.Fatal(err)
	}
	// Released, the lock leaves nothing behind; the folder is private.
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("left in the receipts folder: %v, %v", entries, err)
	}
	if st, err := os.Stat(dir); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o700) {
		t.Fatalf("receipts folder: %v, %v", st, err)
	}
}

// TestLockAcrossProcesses: a second process holding the lock is named by
// its pid; once it is killed, its lock is taken over with a note naming it.
func TestLockAcrossProcesses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("kill")
	}
	dir := filepath.Join(t.TempDir(), "receipts")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "KGROUPS_TEST_HOLD_LOCK="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "locked ") {
		t.Fatalf("holder: %q, %v", line, err)
	}
	child := cmd.Process.Pid

	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err = LockGroup(ctx, dir, cluster, "g")
	var le *LockedError
	if !errors.As(err, &le) || le.Holder.PID != child || !strings.Contains(err.Error(), "(pid "+strconv.Itoa(child)+" on ") {
		t.Fatalf("while pid %d holds it: %v", child, err)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	l, err := LockGroup(context.Background(), dir, cluster, "g")
	if err != nil {
		t.Fatalf("after the holder died: %v", err)
	}
	defer func() { _ = l.Unlock() }()
	if !strings.Contains(l.Note, "took over the lock "+l.Path+", left by pid "+strconv.Itoa(child)+" on ") || !strings.HasSuffix(l.Note, "which no longer runs") {
		t.Fatalf("note = %q", l.Note)
	}
}

// TestLockExclusiveFile: the fallback for systems without flock(2) creates
// the lock file exclusively, refuses while its holder runs, and takes over
// a lock whose holder is gone.
func TestLockExclusiveFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test needs a pid that has exited")
	}
	path := filepath.Join(t.TempDir(), "g.lock")
	l, _, err := tryLockExcl(path)
	if err != nil || l == nil || l.Note != "" {
		t.Fatalf("first: %v, %v", l, err)
	}
	if l2, h, err := tryLockExcl(path); err != nil || l2 != nil || h.PID != os.Getpid() {
		t.Fatalf("second: %v, %+v, %v", l2, h, err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the lock file outlived its lock: %v", err)
	}
	// A holder that has exited.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := me()
	dead.PID = gone.Process.Pid
	if err := os.WriteFile(path, dead.encode(), 0o600); err != nil {
		t.Fatal(err)
	}
	l, _, err = tryLockExcl(path)
	if err != nil || l == nil || !strings.Contains(l.Note, "left by pid "+strconv.Itoa(dead.PID)+" on ") {
		t.Fatalf("stale: %+v, %v", l, err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	// An empty lock file is a holder about to say who it is, until a
	// minute has passed.
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if l, h, err := tryLockExcl(path); err != nil || l != nil || h.PID != 0 {
		t.Fatalf("fresh empty file: %v, %+v, %v", l, h, err)
	}
	old := time.Now().Add(-2 * time.Minute)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	l, _, err = tryLockExcl(path)
	if err != nil || l == nil || !strings.Contains(l.Note, "left by a kgroups that has not said who it is") {
		t.Fatalf("old empty file: %+v, %v", l, err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	// A holder on another host is never taken over.
	other := dead
	other.Host = "elsewhere"
	if err := os.WriteFile(path, other.encode(), 0o600); err != nil {
		t.Fatal(err)
	}
	if l, h, err := tryLockExcl(path); err != nil || l != nil || h.Host != "elsewhere" {
		t.Fatalf("other host: %v, %+v, %v", l, h, err)
	}
}

// TestLockExcludes: many goroutines taking and releasing one lock are
// never inside it together.
func TestLockExcludes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "receipts")
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				l, err := LockGroup(context.Background(), dir, cluster, "g")
				if err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				if n > most.Load() {
					most.Store(n)
				}
				time.Sleep(100 * time.Microsecond)
				inside.Add(-1)
				if err := l.Unlock(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if m := most.Load(); m != 1 {
		t.Fatalf("%d holders at once", m)
	}
}
