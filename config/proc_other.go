//go:build !unix

package config

import "os/exec"

// ownProcessGroup leaves cmd as it is where there are no Unix process
// groups: cancelling it kills the command itself.
func ownProcessGroup(*exec.Cmd) {}
