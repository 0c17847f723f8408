package config

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// splitPatterns splits a list of regular expressions as one string gives
// it (a flag, a variable, a string in the file): at line breaks (which
// join the values of a repeated flag), and at the commas outside (), []
// and {}, so that a repetition such as "undo.{1,3}" or a class such as
// "[,;]" stays one pattern. A backslash keeps the next character: "a\,b"
// is one pattern matching "a,b". Blank patterns are dropped. A bracket
// left open is an error that says how patterns are split, since the
// comma after it would otherwise be taken into the pattern unseen.
func splitPatterns(s string) ([]string, error) {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		var (
			depth   int
			inClass bool
			start   int
		)
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++ // the next character is literal
			case inClass:
				if c == ']' {
					inClass = false
				}
			case c == '[':
				inClass = true
				// A ] right after [ or [^ is a literal member.
				if i+1 < len(line) && line[i+1] == '^' {
					i++
				}
				if i+1 < len(line) && line[i+1] == ']' {
					i++
				}
			case c == '(' || c == '{':
				depth++
			case (c == ')' || c == '}') && depth > 0:
				depth--
			case c == ',' && depth == 0:
				out = appendPattern(out, line[start:i])
				start = i + 1
			}
		}
		if depth > 0 || inClass {
			return nil, fmt.Errorf("a (, [ or { is not closed in %q: patterns are split at the commas outside (), [] and {}; "+
				"write \\, for a comma elsewhere, or give each pattern its own flag or YAML list item", line)
		}
		out = appendPattern(out, line[start:])
	}
	return out, nil
}

func appendPattern(out []string, p string) []string {
	if p = strings.TrimSpace(p); p != "" {
		out = append(out, p)
	}
	return out
}

// patternsFlag is the value of a KindPatterns flag: repeatable, each
// value kept whole by joining with a line break, which splitPatterns
// splits at. Its type is "string" so that viper reads it as the text it
// is.
type patternsFlag struct {
	values []string
}

var _ pflag.Value = (*patternsFlag)(nil)

func (f *patternsFlag) String() string { return strings.Join(f.values, "\n") }

func (f *patternsFlag) Set(v string) error {
	f.values = append(f.values, v)
	return nil
}

func (f *patternsFlag) Type() string { return "string" }
