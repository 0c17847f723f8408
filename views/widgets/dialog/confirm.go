package dialog

import "github.com/kgroups/kgroups/views/format"

// NameConfirmed reports whether typed confirms a change to the group
// named name: the exact name, or the name as the screen shows it
// (format.Sanitize). A name with a control character, an invisible or
// bidirectional character or bytes that are not UTF-8 is shown with those
// escaped ("\x1b", "\u202e", "\xff"), and they cannot be typed, so what is
// shown is what the user can type back.
func NameConfirmed(typed, name string) bool {
	return typed != "" && (typed == name || typed == format.Sanitize(name))
}

// NameHint is what a prompt for the group's name adds when the name is
// shown with escapes: that typing it as shown is accepted, and how it is
// shown. Empty for a name shown as it is.
func NameHint(name string) string {
	if format.Safe(name) {
		return ""
	}
	return " (as shown: " + format.Sanitize(name) + ")"
}
