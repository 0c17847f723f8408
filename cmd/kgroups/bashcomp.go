package main

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"
)

// bashFallback defines _get_comp_words_by_ref, which cobra's bash script
// calls, when Debian's bash-completion package (which defines it) is not
// installed: without it, every TAB printed "_get_comp_words_by_ref:
// command not found". It splits the line up to the cursor on blanks
// only, so that "--topic orders:0" and "--window=1m" stay one word, as
// bash-completion's -n =: gives them.
const bashFallback = `# kgroups: a minimal _get_comp_words_by_ref when bash-completion is absent.
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
_get_comp_words_by_ref()
{
    while [[ $# -gt 0 && $1 == -* ]]; do
        case $1 in -n|-i|-c) shift 2 ;; *) shift ;; esac
    done
    local __kg_line=${COMP_LINE:0:COMP_POINT}
    read -r -a words <<<"$__kg_line"
    [[ $__kg_line =~ [[:blank:]]$ ]] && words+=("")
    cword=$(( ${#words[@]} - 1 ))
    cur=${words[cword]}
    prev=${words[cword-1]}
}
fi

`

// writeBashCompletion writes root's bash completion script (cobra's, with
// descriptions when desc) after bashFallback.
func writeBashCompletion(root *cobra.Command, w io.Writer, desc bool) error {
	var b bytes.Buffer
	b.WriteString(bashFallback)
	if err := root.GenBashCompletionV2(&b, desc); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// useBashFallback makes `kgroups completion bash` write the script with
// bashFallback (cobra's default completion command is added first).
func useBashFallback(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		for _, sub := range c.Commands() {
			if sub.Name() == "bash" {
				sub.RunE = func(cmd *cobra.Command, _ []string) error {
					noDesc, _ := cmd.Flags().GetBool("no-descriptions")
					return writeBashCompletion(root, cmd.OutOrStdout(), !noDesc)
				}
				sub.Run = nil
			}
		}
	}
}
