package format

import "strings"

// ShellQuote quotes s in POSIX single quotes when it holds anything but
// letters, digits and /._-:+=, so that a suggested command can be pasted
// into a shell as it is shown.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:+=", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
