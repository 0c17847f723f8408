package main

import (
	"errors"
	"strings"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/reset"
)

// undoCluster is the cluster an undo runs against: the selected context or
// -b/--brokers as for every command, else, when neither was given, the
// brokers the receipt recorded, after saying so on stderr. A receipt
// records bootstrap brokers only, never credentials: TLS and SASL still
// come from flags and the environment.
func (a *app) undoCluster(rc *reset.Receipt) (config.Cluster, error) {
	c, err := a.cluster()
	if err == nil || !errors.Is(err, config.ErrNoContext) || len(rc.Cluster) == 0 {
		return c, err
	}
	cfg, cerr := a.config()
	if cerr != nil {
		return config.Cluster{}, cerr
	}
	brokers := strings.Join(rc.Cluster, ",")
	sel := a.selection()
	sel.Overrides = append(sel.Overrides, config.Override{
		Key:    "brokers",
		Value:  brokers,
		Source: config.Source{Kind: config.SourceFile, Name: "receipt " + rc.Path + ": cluster"},
	})
	c, err = cfg.Effective(sel)
	if err != nil {
		return config.Cluster{}, err
	}
	a.notef("kgroups: no -b/--brokers or context given: using the brokers recorded in the receipt: %s", brokers)
	a.noteOnce(c.Notes()...)
	a.tightenReceipts()
	return c, nil
}

// undoCommand is the complete command that puts back what the receipt at
// path recorded, shell-quoted for pasting: the same cluster (--context
// NAME, or -b BROKERS for an ad-hoc one), every other global flag this run
// was given, --execute, and --confirm GROUP when the context is protected.
// No flag carries a secret: a password or token has none.
func undoCommand(c config.Cluster, sel config.Selection, path, group string) string {
	parts := []string{"kgroups"}
	if c.Name != "" && c.Name != config.AdHocContext {
		parts = append(parts, "--context", shellQuote(c.Name))
	} else if len(c.Brokers) > 0 {
		parts = append(parts, "-b", shellQuote(strings.Join(c.Brokers, ",")))
	}
	for _, o := range sel.Overrides {
		if o.Source.Kind != config.SourceFlag || o.Key == "brokers" {
			continue
		}
		parts = append(parts, o.Source.Name+"="+shellQuote(o.Value))
	}
	parts = append(parts, "undo", shellQuote(path), "--execute")
	if c.Protected {
		parts = append(parts, confirmFlags([]string{group}))
	}
	return strings.Join(parts, " ")
}
