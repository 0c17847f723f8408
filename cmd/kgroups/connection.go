package main

import (
	"errors"
	"strings"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
)

// connectionArgs are the words that name cluster c on a kgroups command
// line, so that a suggested command runs pasted into the same shell
// against the cluster this run used (clusterArgs), then the connection
// settings given as flags (--tls, --tls-ca-file=..., --sasl-username=...;
// those from the environment are still in the shell). A secret never
// reaches a suggested command: none is a flag, and any that were would be
// left out.
func connectionArgs(c config.Cluster, sel config.Selection) []string {
	words := clusterArgs(c)
	for _, o := range sel.Overrides {
		if o.Source.Kind != config.SourceFlag || o.Key == "brokers" || !connectionSetting(o.Key) {
			continue
		}
		words = append(words, o.Source.Name+"="+o.Value)
	}
	return words
}

// clusterArgs name the cluster the user named, one way for every
// suggested command: the context by name when its own brokers were used
// (its settings, secrets included, stay in the file); -b BROKERS when the
// brokers came from -b, KGROUPS_BROKERS or a receipt, after --context
// NAME only when the context too was named (--context or KGROUPS_CONTEXT)
// and its credentials went with them. A context that is merely current
// never stands for brokers given some other way: pasted, --context would
// send the command to the context's brokers instead.
func clusterArgs(c config.Cluster) []string {
	var words []string
	named := c.Name != "" && c.Name != config.AdHocContext
	elsewhere := !named || c.BrokersGiven() || c.BrokersOverridden()
	if usesContext(c) {
		if f := c.ConfigFlag(); f != "" {
			words = append(words, "--config", f)
		}
		words = append(words, "--context", c.Name)
	}
	if elsewhere && len(c.Brokers) > 0 {
		words = append(words, "-b", strings.Join(c.Brokers, ","))
	}
	return words
}

// usesContext reports whether the cluster the user named is the context:
// its own brokers, or brokers typed with it that got its credentials.
// Brokers given while a context was merely current are not it.
func usesContext(c config.Cluster) bool {
	if c.Name == "" || c.Name == config.AdHocContext {
		return false
	}
	if !c.BrokersGiven() && !c.BrokersOverridden() {
		return true
	}
	return c.ContextNamed() && !c.CredentialsWithheld()
}

// clusterLabel is the prefix of a connection error: the cluster as the
// user named it ("context prod", "context prod, -b HOSTS"), or "" for
// brokers named alone, which the error itself names.
func clusterLabel(c config.Cluster) string {
	words := clusterArgs(c)
	if len(words) >= 2 && words[0] == "--config" {
		words = words[2:]
	}
	switch {
	case len(words) == 4 && words[0] == "--context":
		return "context " + words[1] + ", -b " + words[3]
	case len(words) >= 2 && words[0] == "--context":
		return "context " + words[1]
	}
	return ""
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

// receiptContext is the context a receipt records for a write on c, and
// the UI shows: the context only when it is the cluster the user named
// (usesContext); brokers given while a context was merely current are an
// ad-hoc cluster, as the suggested commands say.
func receiptContext(c config.Cluster) string {
	if !usesContext(c) {
		return config.AdHocContext
	}
	return c.Name
}
