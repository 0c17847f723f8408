package tui

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
)

// backgroundTimeout bounds the one terminal query kgroups makes, for its
// background colour, where nothing answers (script, CI, some SSH jump
// hosts; termenv's own wait is five seconds). A terminal that answers
// later than this has its answer read as keys by the UI, so it is not
// much shorter than a slow SSH link's round trip.
const backgroundTimeout = time.Second

// askBackground decides whether r draws on a dark background. Only the
// full-screen UI asks the terminal (the CLI never does: kgroups' copy of
// Bubble Tea leaves out the query its init made in every program,
// tui/third_party/bubbletea/FORK.md), and only before the program takes
// the terminal; not at all when colour is off (NO_COLOR: the styles carry
// no colour to choose) or TERM=dumb, and COLORFGBG, when set, answers
// without asking. Without an answer the background is taken as dark.
func askBackground(r *lipgloss.Renderer, out any, color bool, getenv func(string) string) {
	dark := true
	switch {
	case !color, getenv("TERM") == "dumb":
	case getenv("COLORFGBG") != "":
		dark = colorFGBGDark(getenv("COLORFGBG"))
	default:
		if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
			if d, err := queryBackground(f, backgroundTimeout); err == nil {
				dark = d
			}
		}
	}
	r.SetHasDarkBackground(dark)
}

// colorFGBGDark reads COLORFGBG ("15;0": foreground 15 on background 0,
// as rxvt and others set it): a background of 0 to 6, or 8, is dark.
func colorFGBGDark(v string) bool {
	if i := strings.LastIndexByte(v, ';'); i >= 0 {
		v = v[i+1:]
	}
	n, err := strconv.Atoi(v)
	return err != nil || n < 7 || n == 8
}

// errNoAnswer is a terminal that did not say its background in time.
var errNoAnswer = errors.New("the terminal did not answer")

// queryBackground asks the terminal f for its background colour (OSC 11),
// then for the cursor position (DSR), which every terminal answers, so
// that the answers end with the second's; it waits at most timeout.
func queryBackground(f *os.File, timeout time.Duration) (dark bool, err error) {
	st, err := term.MakeRaw(f.Fd())
	if err != nil {
		return true, err
	}
	defer func() { _ = term.Restore(f.Fd(), st) }()
	if _, err := f.WriteString("\x1b]11;?\x1b\\\x1b[6n"); err != nil {
		return true, err
	}
	answer, err := readAnswer(f, timeout)
	if err != nil {
		return true, err
	}
	return backgroundDark(answer)
}

// dsrEnd reports whether b holds the end of a cursor position report
// (ESC [ row ; col R).
func dsrEnd(b []byte) bool {
	i := bytes.LastIndex(b, []byte("\x1b["))
	return i >= 0 && bytes.IndexByte(b[i:], 'R') > 0
}

// backgroundDark reads an OSC 11 answer, "ESC ] 11 ; rgb:RRRR/GGGG/BBBB"
// (one to four hex digits a channel) ended by BEL or ST, among what the
// terminal sent: dark when its relative luminance is below one half.
func backgroundDark(b []byte) (bool, error) {
	i := bytes.Index(b, []byte("\x1b]11;rgb:"))
	if i < 0 {
		return true, errNoAnswer
	}
	rest := b[i+len("\x1b]11;rgb:"):]
	end := bytes.IndexAny(rest, "\x07\x1b")
	if end < 0 {
		return true, errNoAnswer
	}
	parts := strings.Split(string(rest[:end]), "/")
	if len(parts) != 3 {
		return true, errNoAnswer
	}
	var c [3]float64
	for k, p := range parts {
		if p == "" || len(p) > 4 {
			return true, errNoAnswer
		}
		n, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return true, errNoAnswer
		}
		c[k] = float64(n) / float64(uint64(1)<<(4*len(p))-1)
	}
	return 0.2126*c[0]+0.7152*c[1]+0.0722*c[2] < 0.5, nil
}
