package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docRef finds a reference to a page by its path, with or without an
// anchor: README.md, docs/cli.md#global-flags-and-exit-codes. A path
// inside a folder (testdata/x/README.md) is another file, not a page.
var docRef = regexp.MustCompile(`(?:^|[^\w/.-])((?:README|ARCHITECTURE|CHANGELOG)\.md|docs/[\w-]+\.md)(#[\w-]+)?`)

// sectionRef finds a section named in words with the page around it:
// `README "The CLI against its floor"`, `ARCHITECTURE.md, "The poll"`,
// `see 'Exit codes' in the README`. The page is group 1 or 4, the
// section's name group 2 or 3.
var sectionRef = regexp.MustCompile(`(README|(?:ARCHITECTURE|CHANGELOG)\.md|docs/[\w-]+\.md)(?:'s)?,?\s+["'“]([^"'”]{3,60})["'”]|["'“]([^"'”]{3,60})["'”]\s+in\s+(?:the\s+)?(README|(?:ARCHITECTURE|CHANGELOG)\.md|docs/[\w-]+\.md)`)

// TestCodeNamesLivePages: Go code (strings, comments, tests), the
// Makefile, the lint and release configurations, the CI scripts and the
// docs' own prose name sections of the documentation in words or by
// path; each such name must still be a heading of that page. A section
// that moved makes this fail, as a dead link does in TestDocsLinks.
func TestCodeNamesLivePages(t *testing.T) {
	root := filepath.Join("..", "..")
	pages := map[string]map[string]bool{}
	read := func(page string) map[string]bool {
		if a, ok := pages[page]; ok {
			return a
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			pages[page] = nil
			return nil
		}
		pages[page] = headingAnchors(string(b))
		return pages[page]
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(name, ".") && name != ".ci" || name == "testdata" || name == "images") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(name, ".go") && name != "docs_test.go" && name != "docs_refs_test.go",
			name == "Makefile", name == ".golangci.yml", name == ".goreleaser.yaml",
			strings.HasPrefix(rel, ".ci/"), strings.HasPrefix(rel, "docs/") && strings.HasSuffix(name, ".md"):
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range []string{".golangci.yml", ".goreleaser.yaml"} {
		if !slices.Contains(files, extra) {
			files = append(files, extra)
		}
	}
	if len(files) < 100 {
		t.Fatalf("read %d files; the walk missed the tree", len(files))
	}
	refs := 0
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range codeDocProblems(f, string(b), read) {
			t.Error(p)
		}
		for _, seg := range refSegments(string(b)) {
			refs += len(docRef.FindAllStringIndex(string(b[seg[0]:seg[1]]), -1))
		}
	}
	if refs < 20 {
		t.Fatalf("found %d references in %d files; the patterns missed them", refs, len(files))
	}
}

// codeDocProblems lists the references of file text to pages that do not
// exist or to sections those pages no longer have. anchors gives a page's
// heading anchors, nil when the page does not exist.
func codeDocProblems(file, text string, anchors func(page string) map[string]bool) []string {
	var problems []string
	for _, seg := range refSegments(text) {
		for _, p := range segmentDocProblems(text[seg[0]:seg[1]], anchors) {
			line := strings.Count(text[:seg[0]+p.at], "\n") + 1
			problems = append(problems, file+":"+strconv.Itoa(line)+": "+p.text)
		}
	}
	return problems
}

// refSegments are the parts of text around each mention of a page, merged
// where they overlap: the patterns run on these alone, since running them
// on every byte of the tree takes seconds under the race detector.
func refSegments(text string) [][2]int {
	const before, after = 100, 200
	var segs [][2]int
	for _, token := range []string{"README", "ARCHITECTURE.md", "CHANGELOG.md", "docs/"} {
		for i := 0; ; {
			j := strings.Index(text[i:], token)
			if j < 0 {
				break
			}
			at := i + j
			segs = append(segs, [2]int{max(0, at-before), min(len(text), at+len(token)+after)})
			i = at + len(token)
		}
	}
	slices.SortFunc(segs, func(a, b [2]int) int { return a[0] - b[0] })
	var merged [][2]int
	for _, s := range segs {
		if n := len(merged); n > 0 && s[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], s[1])
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

type refProblem struct {
	at   int // offset in the segment
	text string
}

// segmentDocProblems lists the dead references in one segment.
func segmentDocProblems(text string, anchors func(page string) map[string]bool) []refProblem {
	var problems []refProblem
	for _, m := range docRef.FindAllStringSubmatchIndex(text, -1) {
		page := text[m[2]:m[3]]
		a := anchors(page)
		switch {
		case a == nil:
			problems = append(problems, refProblem{m[2], page + ": no such page"})
		case m[4] >= 0 && !a[text[m[4]+1:m[5]]]:
			problems = append(problems, refProblem{m[2], text[m[2]:m[5]] + ": no heading makes " + text[m[4]:m[5]] + " in " + page})
		}
	}
	for _, m := range sectionRef.FindAllStringSubmatchIndex(text, -1) {
		page, section := "", ""
		if m[2] >= 0 {
			page, section = text[m[2]:m[3]], text[m[4]:m[5]]
		} else {
			page, section = text[m[8]:m[9]], text[m[6]:m[7]]
		}
		if page == "README" {
			page = "README.md"
		}
		section = strings.Join(strings.Fields(strings.TrimLeft(section, "/ \t\n")), " ")
		a := anchors(page)
		if a == nil {
			problems = append(problems, refProblem{m[0], page + ": no such page"})
			continue
		}
		if !a[headingSlug(section)] {
			problems = append(problems, refProblem{m[0], strconv.Quote(section) + " is no section of " + page + ": name the page and section where it is now (docs/PAGE.md#anchor)"})
		}
	}
	return problems
}

// TestCodeDocProblems proves the checker finds each kind of dead
// reference and accepts the live ones.
func TestCodeDocProblems(t *testing.T) {
	anchors := func(page string) map[string]bool {
		return map[string]map[string]bool{
			"README.md":    {"run-the-tests": true, "keys": true},
			"docs/cli.md":  {"global-flags-and-exit-codes": true},
			"CHANGELOG.md": {},
		}[page]
	}
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"live", "// see docs/cli.md#global-flags-and-exit-codes and README.md, \"Keys\"; 'Run the tests' in the README\n" +
			"// testdata/mixed/README.md is another file; CHANGELOG.md", nil},
		{"dead page", "// docs/gone.md says so", []string{"f.go:1: docs/gone.md: no such page"}},
		{"dead anchor", "x\n\"see README.md#exit-codes\"", []string{"f.go:2: README.md#exit-codes: no heading makes #exit-codes in README.md"}},
		{"section moved", "exit 0, 1 or 4; see 'Exit codes' in the\nREADME). 'kgroups undo",
			[]string{`f.go:1: "Exit codes" is no section of README.md: name the page and section where it is now (docs/PAGE.md#anchor)`}},
		{"section named after the page", "// (`go run ./cmd/floorbench`, README \"The CLI against its floor\")",
			[]string{`f.go:1: "The CLI against its floor" is no section of README.md: name the page and section where it is now (docs/PAGE.md#anchor)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := codeDocProblems("f.go", tc.text, anchors); !slices.Equal(got, tc.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
