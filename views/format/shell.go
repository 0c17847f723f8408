package format

import "strings"

// ShellQuote makes s one word for a POSIX shell, so that a suggested
// command line ("kgroups undo PATH --execute", "kgroups rebalance GROUP
// --all") can be pasted as it is printed: a word of letters, digits and
// "/._-:+=@," stays bare (a leading "=" is quoted, which zsh would expand),
// and anything else is put in single quotes, a quote inside closing them,
// escaped and reopening them. A group named "x;touch /tmp/p" becomes
// 'x;touch /tmp/p', never a second command; the empty string is a pair of
// quotes.
//
// The result is for a terminal only after Sanitize, like any string with a
// broker's bytes in it: a name with control characters cannot be pasted
// back from the screen (give it with --group-base64 instead).
func ShellQuote(s string) string {
	if s != "" && s[0] != '=' && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:+=@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
