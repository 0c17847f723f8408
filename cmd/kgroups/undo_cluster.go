package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
)

// A receipt is a file, and a file can come from anywhere (a ticket, a
// shared folder, a colleague): the cluster it names is a suggestion, never
// a destination for credentials. undo connects only to the cluster the
// user names (-b/--brokers, --context, current-context). With
// --receipt-brokers it connects to the receipt's brokers without any
// credentials (no SASL, no TLS client certificate), unless every broker
// the receipt records is one the selected context itself lists. A
// receipt's cluster id never unlocks credentials: it is text in a file,
// and a broker answers whatever id it likes.

// errNoUndoCluster is the refusal of an undo with no cluster named.
func errNoUndoCluster(rc *reset.Receipt) error {
	ctx := ""
	if rc.Context != "" && rc.Context != config.AdHocContext {
		ctx = fmt.Sprintf(" (context %q)", rc.Context)
	}
	return usageErrorf("no -b/--brokers or context given: undo connects only to a cluster you name, and sends credentials nowhere a file alone names. Receipt %s records the brokers %s%s: to undo there, add -b BROKERS or --context NAME; or add --receipt-brokers to connect to the receipt's brokers without credentials",
		rc.Path, strings.Join(rc.Cluster, ","), ctx)
}

// brokersNamed reports whether the user gave brokers with -b/--brokers or
// KGROUPS_BROKERS.
func (a *app) brokersNamed() bool {
	for _, o := range a.selection().Overrides {
		if o.Key == "brokers" && (o.Source.Kind == config.SourceFlag || o.Source.Kind == config.SourceEnv) {
			return true
		}
	}
	return false
}

// undoConnect resolves the cluster an undo runs against, lets check
// refuse the command before anything is sent, and connects: see above.
// The caller closes the client.
func (a *app) undoConnect(ctx context.Context, rc *reset.Receipt, useReceipt bool, check func(config.Cluster) error) (*kafka.Client, config.Cluster, error) {
	if !useReceipt {
		c, err := a.cluster()
		if errors.Is(err, config.ErrNoContext) && len(rc.Cluster) > 0 {
			return nil, c, errNoUndoCluster(rc)
		}
		if err != nil {
			return nil, c, err
		}
		if err := check(c); err != nil {
			return nil, c, err
		}
		cl, err := a.dial(ctx, c)
		return cl, c, err
	}
	if len(rc.Cluster) == 0 {
		return nil, config.Cluster{}, usageErrorf("--receipt-brokers: receipt %s records no brokers; name the cluster with -b or --context", rc.Path)
	}
	if a.brokersNamed() {
		return nil, config.Cluster{}, usageErrorf("--receipt-brokers and -b/--brokers (or KGROUPS_BROKERS) name two clusters: give one")
	}
	c, err := a.receiptCluster(rc)
	if err != nil {
		return nil, c, err
	}
	if err := check(c); err != nil {
		return nil, c, err
	}
	brokers := strings.Join(rc.Cluster, ",")
	if a.receiptBrokersAreContexts(c, rc) {
		a.notef("kgroups: connecting to the brokers recorded in the receipt, which context %s lists: %s", c.Name, brokers)
		cl, err := a.dial(ctx, c)
		return cl, c, err
	}
	bare := withoutCredentials(c)
	a.notef("kgroups: connecting to the brokers recorded in the receipt, without credentials: %s", brokers)
	if hasCredentials(c) {
		a.notef("kgroups: the credentials were not sent: a receipt's brokers get none unless the context names them; to use yours, name the cluster with -b or --context")
	}
	cl, err := a.dial(ctx, bare)
	if err != nil {
		return nil, bare, fmt.Errorf("%w. kgroups sends no credentials to the brokers a receipt names: to connect with yours, name the cluster with -b or --context", err)
	}
	return cl, bare, nil
}

// receiptBrokersAreContexts reports whether every broker the receipt
// records is one the selected context itself lists: only then is the
// connection to them the context's, credentials included. A receipt's
// cluster id proves nothing (anyone can write one, and a broker says
// whatever id it likes).
func (a *app) receiptBrokersAreContexts(c config.Cluster, rc *reset.Receipt) bool {
	if c.Name == "" || c.Name == config.AdHocContext {
		return false
	}
	cfg, err := a.config()
	if err != nil {
		return false
	}
	own, ok := cfg.Context(c.Name)
	if !ok || len(own.Brokers) == 0 {
		return false
	}
	for _, b := range rc.Cluster {
		if !slices.ContainsFunc(own.Brokers, func(o string) bool { return strings.EqualFold(o, b) }) {
			return false
		}
	}
	return true
}

// receiptCluster is the effective cluster (a context's settings, or an
// ad-hoc one) with the receipt's brokers.
func (a *app) receiptCluster(rc *reset.Receipt) (config.Cluster, error) {
	cfg, err := a.config()
	if err != nil {
		return config.Cluster{}, err
	}
	sel := a.selection()
	sel.Overrides = append(sel.Overrides, config.Override{
		Key:    "brokers",
		Value:  strings.Join(rc.Cluster, ","),
		Source: config.Source{Kind: config.SourceFile, Name: "receipt " + rc.Path + ": cluster"},
	})
	c, err := cfg.Effective(sel)
	if err != nil {
		return config.Cluster{}, err
	}
	a.noteOnce(c.Notes()...)
	a.tightenReceipts()
	return c, nil
}

// withoutCredentials is c with nothing that proves who the user is: no
// SASL, no TLS client certificate. TLS itself, and the CA it trusts, stay.
func withoutCredentials(c config.Cluster) config.Cluster {
	c.SASL = config.SASLConfig{}
	c.TLS.CertFile, c.TLS.KeyFile = "", ""
	return c
}

// hasCredentials reports whether c would prove who the user is.
func hasCredentials(c config.Cluster) bool {
	return c.SASL.Mechanism != "" || c.TLS.CertFile != "" || c.TLS.KeyFile != ""
}

// undoCommand is the complete command that puts back what the receipt at
// path recorded, shell-quoted for pasting: the same cluster (clusterArgs),
// every other global flag this run was given, --execute, and --confirm
// GROUP when the context is protected. No flag carries a secret: a
// password or token has none.
func undoCommand(c config.Cluster, sel config.Selection, path, group string) string {
	parts := []string{"kgroups"}
	for _, w := range clusterArgs(c) {
		parts = append(parts, shellQuote(w))
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
