package tui

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// frameRate is how often the renderer looks for a changed view, per
// second. Bubble Tea's default of 60 wakes the process 60 times a second
// even when nothing changes: on the 2-core development machine an idle
// program then costs 0.8% of a core, against 0.4% at 30 and 0.25% at 20,
// which is what keeps an idle kgroups near 2% at --refresh 5s. A key's
// answer is drawn within 50 ms, under what a person notices over SSH.
const frameRate = 20

// Run opens the UI on the alternate screen and blocks until the user quits
// or ctx ends, then closes the poller in use. Bubble Tea restores the terminal on exit and on a panic; the
// mouse is never captured, so the terminal's own selection keeps working.
func Run(ctx context.Context, opts Options) error {
	if opts.Poller == nil && opts.Replay == nil {
		return errors.New("tui: no poller")
	}
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // abandons a poll still in flight

	// NO_COLOR removes colour, not emphasis: the styles then carry only
	// bold and reverse, rendered with the terminal's real capabilities.
	r := lipgloss.NewRenderer(opts.Output)
	color := opts.Getenv("NO_COLOR") == ""
	if !color {
		r.SetColorProfile(termenv.NewOutput(opts.Output).ColorProfile())
	}
	askBackground(r, opts.Output, color, opts.Getenv)
	m := newModel(ctx, opts, r, color)

	p := tea.NewProgram(m,
		tea.WithContext(ctx),
		tea.WithFPS(frameRate),
		tea.WithAltScreen(),
		tea.WithInput(opts.Input),
		tea.WithOutput(opts.Output),
	)
	_, err := p.Run()
	if c, ok := m.poll.poller.(interface{ Close() }); ok {
		c.Close() // the program has stopped: nothing else reads m
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil // the caller's context ended: a normal way out
	case errors.Is(err, tea.ErrInterrupted):
		return nil
	}
	return fmt.Errorf("terminal UI: %w", err)
}
