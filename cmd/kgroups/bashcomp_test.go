package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBashCompletionWithoutBashCompletion sources `kgroups completion
// bash` into a bash that has no bash-completion package (--norc: nothing
// defines _get_comp_words_by_ref) and presses TAB as bash does: the
// script completes commands and flag values and says nothing on stderr.
func TestBashCompletionWithoutBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	bin := buildKgroups(t)
	isolateConfig(t)
	home := t.TempDir()
	script := filepath.Join(home, "kgroups.bash")
	out, err := exec.Command(bin, "completion", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, out, 0o600); err != nil {
		t.Fatal(err)
	}
	tab := func(line string) (stdout, stderr string) {
		t.Helper()
		// COMP_WORDS as bash splits them, on COMP_WORDBREAKS (= and :
		// among them); the fallback rebuilds the words from COMP_LINE.
		sh := `source "$1"
type _get_comp_words_by_ref >/dev/null || exit 9
COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
read -r -a COMP_WORDS <<<"$COMP_LINE"; [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
compopt() { :; } # a real TAB runs the function inside completion
__start_kgroups kgroups
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", sh, "bash", script, line)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("%q: %v\n%s%s", line, err, o.String(), e.String())
		}
		return o.String(), e.String()
	}
	stdout, stderr := tab("kgroups desc")
	if stderr != "" || !strings.Contains(stdout, "describe") {
		t.Errorf("kgroups desc<TAB>: stdout %q stderr %q", stdout, stderr)
	}
	stdout, stderr = tab("kgroups health --fail-on ")
	if stderr != "" || !strings.Contains(stdout, "ERR") || !strings.Contains(stdout, "WARN") {
		t.Errorf("health --fail-on <TAB>: stdout %q stderr %q", stdout, stderr)
	}
}
