package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kgroups/kgroups/views/render"
)

// Set at link time by release builds:
//
//	go build -ldflags "-X main.version=1.2.3 -X main.commit=abc1234 -X main.date=2026-01-02T03:04:05Z"
//
// Left empty, they are filled from the module and VCS information the Go
// toolchain records in the binary (go install, go build in a checkout).
var (
	version string
	commit  string
	date    string
)

// Shown when neither the linker nor the build information knows a value.
const (
	unknownVersion = "dev"
	unknownCommit  = "none"
	unknownDate    = "unknown"
)

// buildInfo says which build this binary is.
type buildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Date      string `json:"date"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

func init() { register(newVersionCmd) }

// versionOptions is a validated `kgroups version`.
type versionOptions struct {
	short  bool
	format string // text (or table) or json
}

func runVersion(a *app, o versionOptions) error {
	bi, _ := debug.ReadBuildInfo() // nil when the binary carries none
	info := resolveBuildInfo(version, commit, date, bi)
	switch {
	case o.format == formatJSON:
		return render.EncodeJSON(a.stdout, info)
	case o.short:
		_, err := fmt.Fprintln(a.stdout, info.Version)
		return err
	}
	_, err := fmt.Fprintf(a.stdout, "kgroups %s\ncommit:   %s\ndate:     %s\ngo:       %s %s\n",
		info.Version, info.Commit, info.Date, info.GoVersion, info.Platform)
	return err
}

func newVersionCmd(a *app) *cobra.Command {
	var (
		short  bool
		format string
	)
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		Long: "Print kgroups' version, the commit it was built from and the build date.\n" +
			"Release builds carry all three; a binary from go install reports its module\n" +
			"version and, when the toolchain recorded them, the commit and its time.",
		Example: "  kgroups version\n  kgroups version --short\n  kgroups version -o json",
		Args:    cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			o := versionOptions{short: short, format: strings.ToLower(strings.TrimSpace(format))}
			switch o.format {
			case "text", "table", "json":
			default:
				return usageErrorf("invalid --output %q: accepted values are text, json", format)
			}
			return runVersion(a, o)
		},
	}
	hideGlobalFlags(cmd)
	cmd.Flags().BoolVar(&short, "short", false, "print the version number only")
	cmd.Flags().StringVarP(&format, "output", "o", "text", "output format: text or json")
	completeFlag(cmd, "output", fixed("text", formatJSON))
	return cmd
}

// addVersionFlag gives the root command --version, which prints what
// `kgroups version` prints, as gh and kubectl users expect.
func addVersionFlag(root *cobra.Command, a *app) {
	var show bool
	root.Flags().BoolVar(&show, "version", false, "print the version, commit and build date (as kgroups version does)")
	next := root.RunE
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if show {
			return runVersion(a, versionOptions{format: "text"})
		}
		return next(cmd, args)
	}
}

// resolveBuildInfo combines the link-time values with the toolchain's build
// information, field by field: a value set with -ldflags always wins, then
// what the toolchain recorded, then a placeholder. bi may be nil.
func resolveBuildInfo(ldVersion, ldCommit, ldDate string, bi *debug.BuildInfo) buildInfo {
	info := buildInfo{
		Version:   strings.TrimSpace(ldVersion),
		Commit:    strings.TrimSpace(ldCommit),
		Date:      strings.TrimSpace(ldDate),
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi != nil {
		if bi.GoVersion != "" {
			info.GoVersion = bi.GoVersion
		}
		if info.Version == "" {
			info.Version = moduleVersion(bi.Main.Version)
		}
		var revision, modified, vcsTime string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			case "vcs.time":
				vcsTime = s.Value
			}
		}
		if info.Commit == "" && revision != "" {
			info.Commit = revision
			if modified == "true" {
				info.Commit += "-dirty"
			}
		}
		if info.Date == "" {
			info.Date = vcsTime
		}
	}
	if info.Version == "" {
		info.Version = unknownVersion
	}
	if info.Commit == "" {
		info.Commit = unknownCommit
	}
	if info.Date == "" {
		info.Date = unknownDate
	}
	return info
}

// moduleVersion turns the main module's version as the toolchain records it
// into the form release builds print: "v1.2.3" becomes "1.2.3", and a build
// outside any versioned module ("(devel)") has none.
func moduleVersion(v string) string {
	if v == "" || v == "(devel)" {
		return ""
	}
	return strings.TrimPrefix(v, "v")
}

// hideGlobalFlags keeps the global flags (brokers, TLS, timeouts) out of
// cmd's help: cmd connects to nothing, so none of them changes what it
// does. They are still accepted.
func hideGlobalFlags(cmd *cobra.Command) {
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) { f.Hidden = true })
		c.Parent().HelpFunc()(c, args)
	})
}
