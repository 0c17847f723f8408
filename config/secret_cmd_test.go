//go:build unix

package config

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPasswordCmdKilledWithItsGroup: a password_cmd that outlives its
// deadline fails with an error naming the setting, long before its sleep
// would end, and what it started is killed with it.
func TestPasswordCmdKilledWithItsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	// The sleep runs in the background, as a helper a password manager
	// starts might, so that killing only sh would leave it behind.
	_, err := SASLConfig{PasswordCmd: "sleep 60 & echo $! > " + pidFile + "; wait"}.ResolvePassword(ctx)
	if err == nil || !strings.HasPrefix(err.Error(), "sasl.password_cmd: command did not finish in time and was killed") {
		t.Fatalf("err = %v", err)
	}
	if took := time.Since(start); took >= 60*time.Second {
		t.Fatalf("ResolvePassword returned after %s: it waited for the sleep", took)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The kill is asynchronous; give the kernel a moment.
	deadline := time.Now().Add(10 * time.Second)
	for processRuns(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the password command's child %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processRuns reports whether pid is a live process (a zombie waiting for
// its parent to reap it does not count).
func processRuns(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS != "linux" // no /proc: trust kill(0)
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
