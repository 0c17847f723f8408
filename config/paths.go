package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// DefaultPath is where the configuration file lives unless --config or
// KGROUPS_CONFIG say otherwise: $XDG_CONFIG_HOME/kgroups/config.yaml, falling
// back to ~/.config/kgroups/config.yaml as the XDG spec prescribes.
func DefaultPath() (string, error) {
	dir, err := xdgDir("XDG_CONFIG_HOME", ".config")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "kgroups", "config.yaml"), nil
}

// StateDir is where kgroups keeps state worth keeping across runs, such as
// the receipts written before offsets are reset: $XDG_STATE_HOME/kgroups,
// falling back to ~/.local/state/kgroups. It is not created here.
func StateDir() (string, error) {
	dir, err := xdgDir("XDG_STATE_HOME", filepath.Join(".local", "state"))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "kgroups"), nil
}

// xdgDir returns $env when it is an absolute path (the spec says relative
// values are invalid and must be ignored), else ~/fallback.
func xdgDir(env, fallback string) (string, error) {
	if d := os.Getenv(env); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory for %s fallback: %w", env, err)
	}
	if home == "" {
		return "", errors.New("find home directory: $HOME is empty")
	}
	return filepath.Join(home, fallback), nil
}
