package main

import (
	"context"
	"fmt"
	"io"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// app holds what every command shares: streams, global flags and the loaded
// configuration.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	// globals are the global flags and the environment; the file and
	// defaults are layered underneath by config.Effective.
	globals *config.CommandLine

	// cfg is the configuration file, read on first use so that commands
	// that need no configuration (version, help) never fail on a bad file.
	cfg *config.Config
}

// configError marks a configuration problem: exit 1, not a usage error, even
// when its text happens to look like one.
type configError struct{ err error }

func (e configError) Error() string { return e.err.Error() }
func (e configError) Unwrap() error { return e.err }

// config loads the configuration file named by --config or KGROUPS_CONFIG,
// else the default file, which may be absent.
func (a *app) config() (*config.Config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	path, explicit := a.globals.ConfigPath()
	if path == "" {
		p, err := config.DefaultPath()
		if err != nil {
			return nil, configError{fmt.Errorf("config: %w", err)}
		}
		path, explicit = p, false
	}
	cfg, err := config.Load(path, explicit)
	if err != nil {
		return nil, configError{err}
	}
	a.cfg = cfg
	return cfg, nil
}

// selection gathers the context choice and the overrides from flags and the
// environment, naming the flag or variable each came from.
func (a *app) selection() config.Selection { return a.globals.Selection() }

// context is the effective, validated context: the file's selected context
// with environment and flag overrides applied, or an ad-hoc context from
// -b/--brokers.
func (a *app) context() (config.Cluster, error) {
	cfg, err := a.config()
	if err != nil {
		return config.Cluster{}, err
	}
	c, err := cfg.Effective(a.selection())
	if err != nil {
		if config.FromFlags(err) {
			// A bad value on the command line is a usage error (exit 2).
			return config.Cluster{}, usageError{err}
		}
		return config.Cluster{}, configError{err}
	}
	return c, nil
}

// connect resolves the effective context and connects to its cluster. The
// caller closes the client.
func (a *app) connect(ctx context.Context) (*kafka.Client, config.Cluster, error) {
	c, err := a.context()
	if err != nil {
		return nil, c, err
	}
	cl, err := kafka.Connect(ctx, c)
	if err != nil {
		if c.Name == config.AdHocContext {
			return nil, c, err
		}
		return nil, c, fmt.Errorf("context %s: %w", c.Name, err)
	}
	return cl, c, nil
}
