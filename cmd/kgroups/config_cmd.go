package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
)

func init() { register(newConfigCmd) }

func newConfigCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the configuration and switch contexts",
		Long:  configLong(),
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newConfigViewCmd(a), newConfigContextsCmd(a), newConfigUseCmd(a))
	return cmd
}

// configLong documents the file, precedence and environment in the help, so
// it is never out of step with config.Settings.
func configLong() string {
	var b strings.Builder
	b.WriteString(`kgroups reads named contexts (one per cluster) from
$XDG_CONFIG_HOME/kgroups/config.yaml (default ~/.config/kgroups/config.yaml),
or the file named by --config or KGROUPS_CONFIG:

  current-context: prod
  contexts:
    - name: prod
      brokers: [kafka-1:9093, kafka-2:9093]
      tls: {enabled: true, ca_file: /etc/kafka/ca.pem}
      sasl: {mechanism: SCRAM-SHA-512, username: ops, password_env: KAFKA_PW}
      read_only: true

Precedence: flags, then environment, then the file, then defaults.
-b/--brokers works with no file at all. Every setting that can come from
the environment or a flag:
`)
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, s := range config.Settings {
		if s.Env == "" {
			continue // set in the file only
		}
		flag := "(no flag)"
		if s.Flag != "" {
			flag = "--" + s.Flag
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\n", s.Env, flag, s.Help())
	}
	w.Flush()
	return strings.TrimRight(b.String(), "\n")
}

func newConfigViewCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "view",
		Short: "Print the effective configuration with secrets masked",
		Long: `Print the configuration as YAML: the context in use with flags,
environment and defaults applied, and every other context in the file.
Passwords and tokens are shown as ****.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.config()
			if err != nil {
				return err
			}
			var effective *config.Cluster
			c, err := a.context()
			switch {
			case err == nil:
				effective = &c
			case errors.Is(err, config.ErrNoContext):
				// Nothing selected: still show the file.
			default:
				return err
			}
			out, err := cfg.View(effective)
			if err != nil {
				return err
			}
			note := ""
			if !cfg.Found {
				note = " (does not exist)"
			}
			fmt.Fprintf(a.stdout, "# file: %s%s\n%s", cfg.Path, note, out)
			return nil
		},
	}
}

func newConfigContextsCmd(a *app) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "contexts",
		Short: "List the contexts; the one in use is marked *",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "table" && format != "json" {
				return usageErrorf("invalid output format %q (accepted: table, json)", format)
			}
			cfg, err := a.config()
			if err != nil {
				return err
			}
			current := cfg.CurrentContext
			if sel := a.selection(); sel.Context != "" {
				current = sel.Context
			}
			if format == "json" {
				return writeContextsJSON(a, cfg, current)
			}
			if len(cfg.Contexts) == 0 {
				fmt.Fprintf(a.stderr, "kgroups: no contexts defined in %s\n", cfg.Path)
				return nil
			}
			w := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "CURRENT\tNAME\tBROKERS\tREAD-ONLY\tPROTECTED")
			for _, c := range cfg.Contexts {
				mark := ""
				if c.Name == current {
					mark = "*"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%t\t%t\n", mark, c.Name, strings.Join(c.Brokers, ","), c.ReadOnly, c.Protected)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVarP(&format, "output", "o", "table", "output format: table or json")
	return cmd
}

func writeContextsJSON(a *app, cfg *config.Config, current string) error {
	type ctxJSON struct {
		Name      string   `json:"name"`
		Brokers   []string `json:"brokers"`
		ReadOnly  bool     `json:"readOnly"`
		Protected bool     `json:"protected"`
		Current   bool     `json:"current"`
	}
	out := struct {
		Current  string    `json:"current"`
		Contexts []ctxJSON `json:"contexts"`
	}{Current: current, Contexts: []ctxJSON{}}
	for _, c := range cfg.Contexts {
		brokers := c.Brokers
		if brokers == nil {
			brokers = []string{}
		}
		out.Contexts = append(out.Contexts, ctxJSON{Name: c.Name, Brokers: brokers, ReadOnly: c.ReadOnly, Protected: c.Protected, Current: c.Name == current})
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func newConfigUseCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "use CONTEXT",
		Short: "Make CONTEXT the current context in the configuration file",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			cfg, err := a.config()
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return cfg.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config()
			if err != nil {
				return err
			}
			if err := config.UseContext(cfg.Path, args[0]); err != nil {
				return configError{err}
			}
			fmt.Fprintf(a.stdout, "Switched to context %q in %s.\n", args[0], cfg.Path)
			if sel := a.selection(); sel.Context != "" && sel.Context != args[0] {
				fmt.Fprintf(a.stderr, "kgroups: note: %s=%s still overrides current-context\n", sel.ContextSource, sel.Context)
			}
			return nil
		},
	}
}
