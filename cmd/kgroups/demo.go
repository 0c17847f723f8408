package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka/demo"
)

// demoUI opens the live view on the demo cluster. It is a variable so that
// this file does not depend on the UI package; while it is nil, demo serves
// headless.
var demoUI func(ctx context.Context, a *app, brokers []string) error

func init() { register(newDemoCmd) }

// demoOptions is a validated `kgroups demo`.
type demoOptions struct {
	listen   string // the first broker's address, "" for random ports
	headless bool
}

func newDemoCmd(a *app) *cobra.Command {
	var (
		listen   string
		headless bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run an embedded 3-broker cluster with live consumer groups",
		Long: `Run an in-process 3-broker Kafka-protocol cluster on loopback with a live
workload: producers on six topics and groups for every classic assignor
(range, roundrobin, sticky, cooperative-sticky), a KIP-848 group, a static
group, a group that falls behind, one that never commits, an Empty group
with committed offsets and one whose members come and go.

The first line printed is "bootstrap: HOST:PORT,HOST:PORT,HOST:PORT", for
scripts. With --headless it only serves, so any Kafka tool can point at it;
otherwise it opens the live view. Ctrl+C stops it.`,
		Example: `  kgroups demo
  kgroups demo --headless --listen 127.0.0.1:19092`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if listen != "" {
				if _, _, err := demo.ParseListen(listen); err != nil {
					return usageErrorf("--listen: %w", err)
				}
			}
			return runDemo(cmd.Context(), a, demoOptions{listen: listen, headless: headless})
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "first broker's address 127.0.0.1:PORT; the others take PORT+1 and PORT+2 (default: random ports)")
	cmd.Flags().BoolVar(&headless, "headless", false, "only serve the cluster and print its bootstrap address; do not open the live view")
	completeFlag(cmd, "listen", none)
	return cmd
}

// runDemo serves the demo cluster until ctx is cancelled or, unless
// headless, until the user leaves the live view.
func runDemo(ctx context.Context, a *app, o demoOptions) error {
	ui := demoUI
	if o.headless {
		ui = nil
	}
	if ui != nil {
		if err := needTerminal(a, "kgroups demo --headless serves the cluster without one"); err != nil {
			return err
		}
	}
	opts := demo.Options{Listen: o.listen}
	if ui == nil {
		// Nobody else writes to the terminal: let workload trouble show.
		opts.Log = a.stderr
	}
	c, err := demo.Start(ctx, opts)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer c.Close()

	brokers := c.Addrs()
	bootstrap := strings.Join(brokers, ",")
	_, _ = fmt.Fprintf(a.stdout, "bootstrap: %s\n", bootstrap)
	if ui != nil {
		err := ui(ctx, a, brokers)
		// The bootstrap line stays on the screen the live view restores:
		// say what it was.
		_, _ = fmt.Fprintf(a.stdout, "kgroups demo: stopped its in-process cluster (bootstrap %s above)\n", bootstrap)
		return err
	}
	printDemoHint(a.stdout, bootstrap)
	<-ctx.Done()
	return nil
}

func printDemoHint(w io.Writer, bootstrap string) {
	_, _ = fmt.Fprintf(w, `
Point any Kafka tool at it:
  kgroups -b %[1]s
  kgroups -b %[1]s describe --all-groups
  kafka-consumer-groups.sh --bootstrap-server %[1]s --describe --all-groups
  kcat -b %[1]s -L
Press Ctrl+C to stop.
`, bootstrap)
}
