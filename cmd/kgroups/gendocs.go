//go:build gendocs

// The release's completion scripts and man pages are generated from the
// command tree by a hidden command that only a build with -tags gendocs
// has, so that the kgroups binary does not carry the man page generator:
//
//	go run -tags gendocs ./cmd/kgroups __gendocs DIR
//
// writes DIR/completions/kgroups.{bash,zsh,fish,ps1} and DIR/man/*.1.
// .goreleaser.yaml runs it before building.
package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func init() { register(newGenDocsCmd) }

func newGenDocsCmd(*app) *cobra.Command {
	return &cobra.Command{
		Use:    "__gendocs DIR",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return genDocs(cmd.Root(), args[0])
		},
	}
}

// genDocs writes the completion scripts and the man pages of root under
// dir. The pages are dated by SOURCE_DATE_EPOCH when it is set, so that a
// release's pages do not change with the day they are built.
func genDocs(root *cobra.Command, dir string) error {
	comp, man := filepath.Join(dir, "completions"), filepath.Join(dir, "man")
	for _, d := range []string{comp, man} {
		// Pages of commands that are gone must not be packaged.
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		file string
		gen  func(*os.File) error
	}{
		{"kgroups.bash", func(f *os.File) error { return writeBashCompletion(root, f, true) }},
		{"kgroups.zsh", func(f *os.File) error { return root.GenZshCompletion(f) }},
		{"kgroups.fish", func(f *os.File) error { return root.GenFishCompletion(f, true) }},
		{"kgroups.ps1", func(f *os.File) error { return root.GenPowerShellCompletionWithDesc(f) }},
	} {
		f, err := os.Create(filepath.Join(comp, s.file))
		if err != nil {
			return err
		}
		if err := errors.Join(s.gen(f), f.Close()); err != nil {
			return err
		}
	}
	date := time.Now()
	if epoch, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil && epoch > 0 {
		date = time.Unix(epoch, 0)
	}
	date = date.UTC()
	bi := resolveBuildInfo(version, commit, date.Format(time.RFC3339), nil)
	root.DisableAutoGenTag = true
	return doc.GenManTree(root, &doc.GenManHeader{
		// No Title: each page is titled by its command
		// (KGROUPS-SIMULATE), as man -k and the page header show.
		Section: "1",
		Date:    &date,
		Source:  "kgroups " + bi.Version,
		Manual:  "kgroups manual",
	}, man)
}
