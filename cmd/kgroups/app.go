package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// app holds what every command shares: streams, global flags and the loaded
// configuration.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	root   *cobra.Command

	// v resolves the global settings with flags > environment; the file
	// and defaults are layered underneath by config.Effective.
	v *viper.Viper

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
	path, explicit := a.v.GetString(config.KeyConfig), a.v.IsSet(config.KeyConfig)
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
func (a *app) selection() config.Selection {
	var sel config.Selection
	for _, s := range config.Settings {
		if !a.v.IsSet(s.Key) {
			continue
		}
		src := s.Env
		if s.Flag != "" {
			if f := a.root.PersistentFlags().Lookup(s.Flag); f != nil && f.Changed {
				src = "--" + s.Flag
			}
		}
		val := a.v.GetString(s.Key)
		switch s.Key {
		case config.KeyConfig:
		case config.KeyContext:
			sel.Context, sel.ContextSource = val, src
		default:
			sel.Overrides = append(sel.Overrides, config.Override{Key: s.Key, Value: val, Source: src})
		}
	}
	return sel
}

// context is the effective, validated context: the file's selected context
// with environment and flag overrides applied, or an ad-hoc context from
// -b/--brokers.
func (a *app) context() (config.Context, error) {
	cfg, err := a.config()
	if err != nil {
		return config.Context{}, err
	}
	c, err := cfg.Effective(a.selection())
	if err != nil {
		if config.FromFlags(err) {
			// A bad value on the command line is a usage error (exit 2).
			return config.Context{}, usageError{err}
		}
		return config.Context{}, configError{err}
	}
	return c, nil
}

// connect resolves the effective context and connects to its cluster. The
// caller closes the client.
func (a *app) connect(ctx context.Context) (*kafka.Client, config.Context, error) {
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
