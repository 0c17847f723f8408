package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/render"
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
		_, _ = fmt.Fprintf(w, "  %s\t%s\t%s\n", s.Env, flag, s.Help())
	}
	_ = w.Flush() // into a strings.Builder, which cannot fail
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
		RunE: func(*cobra.Command, []string) error { return runConfigView(a) },
	}
}

func runConfigView(a *app) error {
	cfg, err := a.config()
	if err != nil {
		return err
	}
	var effective *config.Cluster
	c, err := a.cluster()
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
	_, err = fmt.Fprintf(a.stdout, "# file: %s%s\n%s", cfg.Path, note, out)
	return err
}

func newConfigContextsCmd(a *app) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "contexts",
		Short: "List the contexts; the one in use is marked *",
		// kubectl's words for it.
		SuggestFor: []string{"get-contexts"},
		Args:       cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if format != formatTable && format != formatJSON {
				return usageErrorf("invalid output format %q (accepted: table, json)", format)
			}
			return runConfigContexts(a, format)
		},
	}
	cmd.Flags().StringVarP(&format, "output", "o", formatTable, "output format: table or json")
	completeFlag(cmd, "output", fixed(formatTable, formatJSON))
	return cmd
}

func runConfigContexts(a *app, format string) error {
	cfg, err := a.config()
	if err != nil {
		return err
	}
	current := cfg.CurrentContext
	if sel := a.selection(); sel.Context != "" {
		current = sel.Context
	}
	if format == formatJSON {
		return writeContextsJSON(a, cfg, current)
	}
	if len(cfg.Contexts) == 0 {
		a.notef("kgroups: no contexts defined in %s", cfg.Path)
		return nil
	}
	mark := func(c config.Cluster) string {
		if c.Name == current {
			return "*"
		}
		return ""
	}
	return render.WriteTable(a.stdout, []columns.Column[config.Cluster]{
		{Title: "CURRENT", Value: mark},
		{Title: "NAME", Value: func(c config.Cluster) string { return c.Name }},
		{Title: "BROKERS", Value: func(c config.Cluster) string { return strings.Join(c.Brokers, ",") }},
		{Title: "READ-ONLY", Value: func(c config.Cluster) string { return strconv.FormatBool(c.ReadOnly) }},
		{Title: "PROTECTED", Value: func(c config.Cluster) string { return strconv.FormatBool(c.Protected) }},
	}, cfg.Contexts)
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
	return render.EncodeJSON(a.stdout, out)
}

func newConfigUseCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "use CONTEXT",
		Short: "Make CONTEXT the current context in the configuration file",
		// kubectl's words for it.
		SuggestFor: []string{"use-context", "set-context"},
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("config use needs exactly one context name (got %d arguments); kgroups config contexts lists them", len(args))
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, noFiles
			}
			return a.completeContexts(cmd, args, toComplete)
		},
		RunE: func(_ *cobra.Command, args []string) error { return runConfigUse(a, args[0]) },
	}
}

func runConfigUse(a *app, name string) error {
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if err := config.UseContext(cfg.Path, name); err != nil {
		return err
	}
	if err := render.Printf(a.stdout, "Switched to context %q in %s.", name, cfg.Path); err != nil {
		return err
	}
	if sel := a.selection(); sel.Context != "" && sel.Context != name {
		a.notef("kgroups: note: %s=%s still overrides current-context", sel.ContextSource, sel.Context)
	}
	return nil
}
