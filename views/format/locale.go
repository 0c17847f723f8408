package format

import "strings"

// UTF8Locale reports whether the locale from the environment is UTF-8,
// reading LC_ALL, then LC_CTYPE, then LANG: the first one set decides, as
// for the C library. getenv is os.Getenv outside tests.
func UTF8Locale(getenv func(string) string) bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		v = strings.ToLower(v)
		return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
	}
	return false
}

// AtLeast is the lower-bound mark for the locale.
func AtLeast(utf8 bool) string {
	if utf8 {
		return AtLeastUnicode
	}
	return AtLeastASCII
}
