package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// parseSpan reads a time-lag cell ("=11m29s", "≥55s", "3m04s", "2h05m")
// as seconds, and the seconds its last unit stands for (the display
// truncates to it).
func parseSpan(t *testing.T, cell string) (sec, unit float64) {
	t.Helper()
	s := strings.TrimLeft(cell, "=≥>")
	re := regexp.MustCompile(`^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$`)
	m := re.FindStringSubmatch(s)
	if m == nil || s == "" {
		t.Fatalf("time lag cell %q", cell)
	}
	for i, u := range []float64{86400, 3600, 60, 1} {
		if m[i+1] != "" {
			n, _ := strconv.Atoi(m[i+1])
			sec += float64(n) * u
			unit = u
		}
	}
	return sec, unit
}

// timeLagCell is the TIME-LAG cell of group's row on the groups screen:
// the column is right-aligned, so the cell ends where its title does.
func timeLagCell(screen, group string) (string, bool) {
	end := -1
	for _, l := range strings.Split(screen, "\n") {
		if i := strings.Index(l, " TIME-LAG "); i >= 0 && strings.Contains(l, "NAME") {
			end = len([]rune(l[:i])) + len(" TIME-LAG")
			continue
		}
		f := strings.Fields(strings.TrimPrefix(l, "▶"))
		r := []rune(l)
		if end < 0 || len(f) == 0 || f[0] != group || len(r) < end {
			continue
		}
		cells := strings.Fields(string(r[:end]))
		return cells[len(cells)-1], true
	}
	return "", false
}

// TestEndToEndTimeLagAgreesWithTheCLI runs `kgroups demo --headless`, the
// built binary's UI on it in tmux, and `kgroups describe --time-lag` (the
// exact read) next to it. For billing-archive, whose commits stay put, and
// analytics-slow, which falls further behind, the UI shows the exact time
// lag ("=") without any key, and what it shows is never above the CLI's
// exact value read after it by more than a poll interval (a commit that
// moves in between), nor below it by more than the time between the UI's
// poll and the CLI's read (measured, plus a poll interval and the
// display's last unit).
func TestEndToEndTimeLagAgreesWithTheCLI(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	bin := buildKgroups(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	brokers, _, demoErr, code := startDemo(t, ctx, "demo", "--headless")
	defer func() {
		cancel()
		waitExit(t, code, demoErr)
	}()
	bootstrap := strings.Join(brokers, ",")

	sockDir := filepath.Join(dir, "tmux")
	if err := os.Mkdir(sockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := &tmuxSession{
		t:      t,
		socket: fmt.Sprintf("kgroups-e2e-tl-%d-%d", os.Getpid(), time.Now().UnixNano()),
		name:   "e2e",
		env: []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + sockDir,
			"SHELL=/bin/sh", "TERM=xterm-256color", "LANG=C.UTF-8",
		},
	}
	const refresh = time.Second
	script := "env -i PATH=" + e2eQuote(os.Getenv("PATH")) + " HOME=" + e2eQuote(dir) +
		" XDG_CONFIG_HOME=" + e2eQuote(filepath.Join(dir, "config")) +
		" LANG=C.UTF-8 TERM=xterm-256color " + e2eQuote(bin) + " -b " + e2eQuote(bootstrap) + " --refresh " + refresh.String() + "; read done"
	s.must("new-session", "-d", "-s", s.name, "-x", "160", "-y", "40", script)
	t.Cleanup(func() {
		if _, err := s.tmux("kill-server"); err != nil {
			t.Logf("kill the tmux server: %v", err)
		}
	})

	groups := []string{"analytics-slow", "billing-archive"}
	for round := range 2 {
		// Wait until both rows show an exact time lag, then read the
		// CLI's right after the screen.
		var screen string
		s.waitFor("exact time lags for "+strings.Join(groups, " and "), func(sc string) bool {
			for _, g := range groups {
				if cell, ok := timeLagCell(sc, g); !ok || !strings.HasPrefix(cell, "=") {
					return false
				}
			}
			screen = sc
			return true
		})
		shown := time.Now()
		out, err := exec.Command(bin, "-b", bootstrap, "describe", "analytics-slow", "billing-archive", "--time-lag", "-o", "json").Output()
		read := time.Now()
		if err != nil {
			t.Fatalf("describe --time-lag: %v\n%s", err, out)
		}
		var doc struct {
			Groups []struct {
				Group      string `json:"group"`
				Partitions []struct {
					TimeLagSeconds *float64 `json:"timeLagSeconds"`
				} `json:"partitions"`
			} `json:"groups"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("describe JSON: %v\n%s", err, out)
		}
		for _, g := range doc.Groups {
			cliMax := -1.0
			for _, p := range g.Partitions {
				if p.TimeLagSeconds != nil && *p.TimeLagSeconds > cliMax {
					cliMax = *p.TimeLagSeconds
				}
			}
			cell, _ := timeLagCell(screen, g.Group)
			ui, unit := parseSpan(t, cell)
			// The UI's value is as of its latest poll, at most a
			// refresh (and a poll) before the screen was read.
			slack := read.Sub(shown).Seconds() + 2*refresh.Seconds() + unit
			t.Logf("round %d: %s: UI %s, CLI %.3fs (%.1fs apart)", round, g.Group, cell, cliMax, read.Sub(shown).Seconds())
			switch {
			case cliMax < 0:
				t.Errorf("%s: the CLI read no time lag: %s", g.Group, out)
			case ui > cliMax+unit+refresh.Seconds():
				// A commit that moved between the two reads can lower
				// the truth by what it consumed: one poll's worth.
				t.Errorf("%s: the UI shows %s, above the exact %.3fs read after it by more than a poll", g.Group, cell, cliMax)
			case cliMax-ui > slack:
				t.Errorf("%s: the UI shows %s, %.1fs below the exact %.3fs (allowed %.1fs)", g.Group, cell, cliMax-ui, cliMax, slack)
			}
		}
		if len(doc.Groups) != len(groups) {
			t.Fatalf("describe printed %d groups: %s", len(doc.Groups), out)
		}
		time.Sleep(3 * refresh) // a later poll, with analytics-slow's commit moved
	}
	s.send("q")
}
