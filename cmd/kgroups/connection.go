package main

import (
	"errors"
	"strings"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
)

// connectionArgs are the words that name cluster c on a kgroups command
// line, so that a suggested command runs pasted into the same shell: the
// context by name (its settings, secrets included, stay in the file), else
// the brokers given with -b or KGROUPS_BROKERS, then the connection
// settings given as flags (--tls, --tls-ca-file=..., --sasl-username=...;
// those from the environment are still in the shell). A secret never
// reaches a suggested command: none is a flag, and any that were would be
// left out.
func connectionArgs(c config.Cluster, sel config.Selection) []string {
	var words []string
	switch {
	case c.Name != "" && c.Name != config.AdHocContext:
		words = []string{"--context", c.Name}
	case len(c.Brokers) > 0:
		words = []string{"-b", strings.Join(c.Brokers, ",")}
	}
	for _, o := range sel.Overrides {
		if o.Source.Kind != config.SourceFlag || o.Key == "brokers" || !connectionSetting(o.Key) {
			continue
		}
		words = append(words, o.Source.Name+"="+o.Value)
	}
	return words
}

// connectionSetting reports whether key is a setting of how kgroups
// connects that is not a secret.
func connectionSetting(key string) bool {
	for _, s := range config.Settings {
		if s.Key == key {
			return s.Connection && !s.Secret
		}
	}
	return false
}

// commandLine is a kgroups command on cluster c, every word quoted for a
// POSIX shell.
func commandLine(c config.Cluster, sel config.Selection, command string, args ...string) string {
	words := append(append(append([]string{"kgroups"}, connectionArgs(c, sel)...), command), args...)
	for i, w := range words {
		words[i] = format.ShellQuote(w)
	}
	return strings.Join(words, " ")
}

// withConnection puts the connection of c into the command a refusal
// suggests (the rebalance that would empty a live group), and returns err.
func (a *app) withConnection(c config.Cluster, err error) error {
	var live *reset.LiveGroupError
	if errors.As(err, &live) && live.Connection == nil {
		live.Connection = connectionArgs(c, a.selection())
	}
	return err
}
