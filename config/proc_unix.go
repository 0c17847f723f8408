//go:build unix

package config

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup runs cmd in a process group of its own and makes its
// cancellation kill the whole group, so that what a password command
// starts (a sleep, a prompt, a helper) dies with it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
