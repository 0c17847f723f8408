package format

import "testing"

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"orders":                     "orders",
		"a,b":                        "a,b",
		"/tmp/r-1.json":              "/tmp/r-1.json",
		"":                           "''",
		"x;touch /tmp/p":             "'x;touch /tmp/p'",
		"it's":                       `'it'\''s'`,
		"$(id)":                      "'$(id)'",
		"`id`":                       "'`id`'",
		"a b":                        "'a b'",
		"=ls":                        "'=ls'",
		"~root":                      "'~root'",
		"*":                          "'*'",
		"消费者组":                       "'消费者组'",
		"live\x1b[31m":               "'live\x1b[31m'",
		"--all":                      "--all",
		"'":                          `''\'''`,
		"a\nb":                       "'a\nb'",
		"group!":                     "'group!'",
		"q\"":                        "'q\"'",
		"h#":                         "'h#'",
		"x&y|z<w>v":                  "'x&y|z<w>v'",
		"tab\there":                  "'tab\there'",
		"back\\slash":                "'back\\slash'",
		"brace{a,b}":                 "'brace{a,b}'",
		"percent%":                   "'percent%'",
		"caret^":                     "'caret^'",
		"bang!history":               "'bang!history'",
		"semi;":                      "'semi;'",
		"paren(":                     "'paren('",
		"question?":                  "'question?'",
		"bracket[":                   "'bracket['",
		"dollar$HOME":                "'dollar$HOME'",
		"consumer-1-4f9c0e@host:909": "consumer-1-4f9c0e@host:909",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}
