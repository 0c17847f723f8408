package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The documentation checked for broken links, relative to the repository
// root; every docs/*.md page is added to these.
var docRoots = []string{"README.md", "ARCHITECTURE.md", "CHANGELOG.md"}

// TestDocsLinks fails when a relative link in the README, ARCHITECTURE.md,
// CHANGELOG.md, a page in docs/ or a maintainer's page in docs/dev/ points
// at a file that does not exist or at an anchor that no heading of its
// target makes, when a page in docs/ is not linked from the README, and
// when a page in docs/dev/ is not linked from ARCHITECTURE.md.
func TestDocsLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	names := slices.Clone(docRoots)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no pages in docs/")
	}
	var docPages, devPages []string
	for _, p := range pages {
		rel := "docs/" + filepath.Base(p)
		names = append(names, rel)
		docPages = append(docPages, rel)
	}
	dev, err := filepath.Glob(filepath.Join(root, "docs", "dev", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dev) == 0 {
		t.Fatal("no pages in docs/dev/")
	}
	for _, p := range dev {
		rel := "docs/dev/" + filepath.Base(p)
		names = append(names, rel)
		devPages = append(devPages, rel)
	}
	files := make(map[string]string, len(names))
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	for _, problem := range checkDocLinks(files, exists) {
		t.Error(problem)
	}
	for _, page := range unlinkedPages(files["README.md"], "README.md", docPages) {
		t.Errorf("README.md does not link %s", page)
	}
	for _, page := range unlinkedPages(files["ARCHITECTURE.md"], "ARCHITECTURE.md", devPages) {
		t.Errorf("ARCHITECTURE.md does not link %s", page)
	}
}

// TestCheckDocLinks proves that the checker finds each kind of broken link
// and accepts the good ones.
func TestCheckDocLinks(t *testing.T) {
	onDisk := map[string]bool{"LICENSE": true, "docs/images/tui.png": true, "docs": true}
	exists := func(rel string) bool { return onDisk[rel] }
	base := map[string]string{
		"docs/a.md": "# Page A\n\n## Time lag\n\n## Time lag\n\n## `reset`, undo: *all*\n\n### Guards: read_only and protected\n",
	}
	tests := []struct {
		name string
		doc  string // README.md's text, checked with docs/a.md
		bad  []string
	}{
		{name: "good links", doc: "[a](docs/a.md) [t](docs/a.md#time-lag) [t1](docs/a.md#time-lag-1) " +
			"[r](docs/a.md#reset-undo-all) [g](docs/a.md#guards-read_only-and-protected) " +
			"![s](docs/images/tui.png) [l](LICENSE) [d](docs/) [w](https://example.com/x.md#nope) " +
			"[m](mailto:x@example.com) [self](#readme)\n\n# Readme\n"},
		{name: "missing file", doc: "see [b](docs/b.md)\n", bad: []string{`README.md:1: "docs/b.md": no such file`}},
		{name: "missing image", doc: "![s](docs/images/group.png)\n", bad: []string{`README.md:1: "docs/images/group.png": no such file`}},
		{name: "missing anchor", doc: "[t](docs/a.md#timelag)\n", bad: []string{`README.md:1: "docs/a.md#timelag": no heading makes #timelag in docs/a.md`}},
		{name: "duplicate counted once too often", doc: "[t](docs/a.md#time-lag-2)\n", bad: []string{`README.md:1: "docs/a.md#time-lag-2": no heading makes #time-lag-2 in docs/a.md`}},
		{name: "anchor in the same file", doc: "# Title\n\n[x](#install)\n", bad: []string{`README.md:3: "#install": no heading makes #install in README.md`}},
		{name: "anchor case", doc: "[t](docs/a.md#Time-lag)\n", bad: []string{`README.md:1: "docs/a.md#Time-lag": no heading makes #Time-lag in docs/a.md`}},
		{name: "links in code are not links", doc: "`[x](nope.md)`\n\n    [y](nope.md)\n\n```\n[z](nope.md)\n```\n"},
		{name: "relative to the page", doc: "[up](../LICENSE)\n", bad: []string{`README.md:1: "../LICENSE": outside the repository`}},
		{name: "anchor into an unchecked page", doc: "[x](LICENSE#top)\n", bad: []string{`README.md:1: "LICENSE#top": anchor into LICENSE, which is not a checked page`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"README.md": tc.doc}
			for k, v := range base {
				files[k] = v
			}
			got := checkDocLinks(files, exists)
			if !slices.Equal(got, tc.bad) {
				t.Errorf("problems:\n got %q\nwant %q", got, tc.bad)
			}
		})
	}

	// A page in docs/ that links back up to the repository resolves from
	// its own folder.
	files := map[string]string{
		"README.md": "# R\n",
		"docs/b.md": "[r](../README.md#r) [l](../LICENSE) [a](a.md) [img](images/tui.png)\n",
		"docs/a.md": "# A\n",
	}
	if got := checkDocLinks(files, exists); len(got) != 0 {
		t.Errorf("links from docs/b.md: %q", got)
	}

	// Every page must be linked from the README.
	readme := "[a](docs/a.md) and [c](./docs/c.md#x)"
	if got := unlinkedPages(readme, "README.md", []string{"docs/a.md", "docs/b.md", "docs/c.md"}); !slices.Equal(got, []string{"docs/b.md"}) {
		t.Errorf("unlinked pages: %q", got)
	}
}

// TestHeadingSlugs pins GitHub's slug rules: lowercase, spaces to '-',
// punctuation other than '-' and '_' removed, duplicates numbered.
func TestHeadingSlugs(t *testing.T) {
	doc := "# kgroups\n## Install\n## Try it on a new machine\n### reset, undo, delete, delete-offsets\n" +
		"## The CLI against its floor\n## `list`\n## Guards: read_only and protected\n## Install\n## Install\n" +
		"## What \"moved\" means\n## Lag — in seconds\n## [Linked](x.md) *heading*\n## 1.1.0 - 2026-11-30\n"
	want := []string{"kgroups", "install", "try-it-on-a-new-machine", "reset-undo-delete-delete-offsets",
		"the-cli-against-its-floor", "list", "guards-read_only-and-protected", "install-1", "install-2",
		"what-moved-means", "lag--in-seconds", "linked-heading", "110---2026-11-30"}
	got := headingAnchors(doc)
	for _, w := range want {
		if !got[w] {
			t.Errorf("no anchor %q in %v", w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("anchors %v, want %v", got, want)
	}
}

var (
	mdLink      = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeSpan    = regexp.MustCompile("`+[^`]*`+")
	headingLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	scheme      = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// checkDocLinks checks every relative link of every file (keyed by its
// path from the repository root, with slashes): the file it names must be
// one of files or exist (exists is asked with a cleaned path from the
// root), and an anchor
// must be made by a heading of its target, which must be one of files.
// Links inside code are not links. It returns one line per problem, in
// file order.
func checkDocLinks(files map[string]string, exists func(string) bool) []string {
	anchors := make(map[string]map[string]bool, len(files))
	for name, text := range files {
		anchors[name] = headingAnchors(text)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var problems []string
	for _, name := range names {
		for _, l := range docLinks(files[name]) {
			if p := checkLink(name, l.target, anchors, exists); p != "" {
				problems = append(problems, name+":"+strconv.Itoa(l.line)+": "+strconv.Quote(l.target)+": "+p)
			}
		}
	}
	return problems
}

// checkLink says what is wrong with one link of page from, or "".
func checkLink(from, target string, anchors map[string]map[string]bool, exists func(string) bool) string {
	if scheme.MatchString(target) || strings.HasPrefix(target, "//") {
		return "" // a URL: not checked here
	}
	file, anchor, _ := strings.Cut(target, "#")
	dest := from
	if file != "" {
		dest = path.Clean(path.Join(path.Dir(from), file))
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return "outside the repository"
		}
		if _, page := anchors[dest]; !page && !exists(dest) {
			return "no such file"
		}
	}
	if anchor == "" {
		return ""
	}
	a, ok := anchors[dest]
	if !ok {
		return "anchor into " + dest + ", which is not a checked page"
	}
	if !a[anchor] {
		return "no heading makes #" + anchor + " in " + dest
	}
	return ""
}

type docLink struct {
	line   int
	target string
}

// docLinks lists the link and image targets of a Markdown text, outside
// fenced and indented code blocks and code spans.
func docLinks(text string) []docLink {
	var links []docLink
	for i, line := range proseLines(text) {
		if line == "" {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			links = append(links, docLink{line: i + 1, target: m[1]})
		}
	}
	return links
}

// proseLines returns the text's lines with those in code blocks blanked, so
// that line numbers still count from the top.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	out := make([]string, len(lines))
	fence := ""
	inIndented := false
	prevBlank := true
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case strings.TrimSpace(line) == "":
			// a blank line neither opens nor closes an indented block
		case (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) && (prevBlank || inIndented):
			inIndented = true
		default:
			inIndented = false
			out[i] = line
		}
		prevBlank = strings.TrimSpace(line) == ""
	}
	return out
}

// headingAnchors returns the anchors GitHub makes for a text's headings:
// the heading's text without Markdown marks, lowercased, punctuation other
// than '-' and '_' removed, spaces turned into '-'; a repeated slug gets
// -1, -2 and so on.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		m := headingLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := headingSlug(m[2])
		n := seen[slug]
		seen[slug] = n + 1
		if n > 0 {
			slug += "-" + strconv.Itoa(n)
		}
		anchors[slug] = true
	}
	return anchors
}

func headingSlug(heading string) string {
	// A link in a heading keeps its text; images and marks go.
	heading = mdLink.ReplaceAllStringFunc(heading, func(s string) string {
		if strings.HasPrefix(s, "!") {
			return ""
		}
		return s[1:strings.Index(s, "](")]
	})
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unlinkedPages returns the pages that the text of file from does not link.
func unlinkedPages(text, from string, pages []string) []string {
	linked := map[string]bool{}
	for _, l := range docLinks(text) {
		file, _, _ := strings.Cut(l.target, "#")
		if file == "" || scheme.MatchString(file) {
			continue
		}
		linked[path.Clean(path.Join(path.Dir(from), file))] = true
	}
	var missing []string
	for _, p := range pages {
		if !linked[p] {
			missing = append(missing, p)
		}
	}
	return missing
}
