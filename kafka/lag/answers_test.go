package lag

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

var update = flag.Bool("update", false, "rewrite testdata/answers from the rules as they are")

// The rules' answers for recorded inputs live in testdata/answers: for
// generated histories (generate) and a long flat run, every group's
// evaluation after every poll (its verdict, each partition's status, time
// lag, rates and catch-up), its lag series and the exact reads wanted. A
// change to a rule shows as a diff of these files, reviewed once and
// written with
//
//	go test ./kafka/lag -run TestHistoryAnswers -update
//
// That the compact encoding gives the rules the numbers they were given is
// the equivalence tests' part (equivalence_test.go).

// answerRuns are how many generated histories each configuration of
// equivConfigs records.
const answerRuns = 4

// TestHistoryAnswers holds the History's answers for the recorded inputs
// to testdata/answers, and requires the inputs to reach every partition
// status and every kind of time lag, so that every rule is recorded.
func TestHistoryAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 7))
	var tally equivTally
	for i := range answerRuns * len(equivConfigs) {
		data := equivInput(rng, 200+rng.IntN(1000))
		data[0] = byte(i % len(equivConfigs))
		name := fmt.Sprintf("seeded-%02d", i)
		t.Run(name, func(t *testing.T) {
			var rec *recorder
			generate(t, data, func(cfg Config) historySink {
				rec = newRecorder(cfg, &tally)
				return rec
			})
			checkAnswers(t, name, rec.out.Bytes())
		})
	}
	t.Run("flat", func(t *testing.T) {
		checkAnswers(t, "flat", flatAnswers(&tally))
	})
	t.Run("no-commits", func(t *testing.T) {
		checkAnswers(t, "no-commits", noCommitsAnswers(&tally))
	})
	for s, n := range tally.status {
		if n == 0 {
			t.Errorf("no recorded partition was judged %v", Status(s))
		}
	}
	for k, n := range tally.kind {
		if n == 0 {
			t.Errorf("no recorded time lag was %v", TimeLagKind(k))
		}
	}
	t.Logf("statuses %v, time-lag kinds %v", tally.status, tally.kind)
}

// checkAnswers compares got with testdata/answers/name.golden, or writes
// it there with -update.
func checkAnswers(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "answers", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := "(none)", "(none)"
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s:%d differs (review the change, then -update):\n got  %s\n want %s", path, i+1, g, w)
		}
	}
}

// recorder is a historySink that writes the History's answers after every
// poll. It answers only the exact reads of partitions no other group of
// the poll has: which of two groups' equally old commits on one partition
// is wanted depends on map order, and the recording must not.
type recorder struct {
	h     *History
	out   bytes.Buffer
	tally *equivTally
}

func newRecorder(cfg Config, tally *equivTally) *recorder {
	r := &recorder{h: NewHistory(cfg), tally: tally}
	c := r.h.Config()
	fmt.Fprintf(&r.out, "config window %d min-distance %s samples %d points %d rate-polls %d evict-after %d\n",
		c.Window, c.MinDistance, c.Samples, c.TimePoints, c.RatePolls, c.EvictAfter)
	return r
}

func (r *recorder) add(_ testing.TB, s *kafka.Snapshot) bool {
	before := r.h.Polls()
	r.h.Add(s)
	return r.h.Polls() != before
}

func (r *recorder) noteReset(_ testing.TB, group string, rs Reset) {
	fmt.Fprintf(&r.out, "reset %s %s\n", group, rs.Receipt)
	r.h.NoteReset(group, rs)
}

func (r *recorder) readExact(_ testing.TB, br *byteReader, now time.Time) {
	want := slices.DeleteFunc(r.h.WantExact(int(br.next()%4)+1, nil), func(p kafka.PartitionOffsets) bool {
		return sharedPartition(r.h, p)
	})
	recs := exactAnswers(br, want, now)
	fmt.Fprintf(&r.out, "exact %d read, %d stored\n", len(recs), r.h.AddExact(recs))
}

func (r *recorder) check(_ testing.TB, now time.Time) {
	writeAnswers(&r.out, r.h, now, r.tally, now, now.Add(90*time.Second))
}

// flatAnswers records TestHistoryEquivalenceLongFlat's polls: a
// partition whose log stopped growing, one nobody commits for, and a busy
// one, over 70,000 polls, answered every 20th of the first 200 polls,
// then every 997th, and at the last two.
func flatAnswers(tally *equivTally) []byte {
	h := NewHistory(DefaultConfig())
	var out bytes.Buffer
	const polls = 70000
	now := t0
	for i := range polls {
		now = now.Add(2*time.Second + time.Duration(i%7)*time.Millisecond)
		end := int64(min(i, 80)) * 3
		h.Add(snap(now, grp("g",
			po("busy", 0, int64(i)*40, int64(i)*41),
			unowned(po("flat", 0, 5, end)),
			po("flat", 1, min(int64(i), 70), end+1000),
		)))
		if i%997 == 0 || i > polls-3 || i < 200 && i%20 == 0 {
			writeAnswers(&out, h, now, tally, now, now.Add(time.Hour))
		}
	}
	return out.Bytes()
}

// noCommitsAnswers records a group whose live members own partitions
// they never commit for, beside one that commits, over 15 polls 5s apart
// (DefaultConfig): NO-COMMITS once a window of polls saw no commit, until
// the first commit; a partition nobody owns is never NO-COMMITS.
func noCommitsAnswers(tally *equivTally) []byte {
	h := NewHistory(DefaultConfig())
	var out bytes.Buffer
	now := t0
	for i := range int64(15) {
		now = now.Add(5 * time.Second)
		late := kafka.NoOffset
		if i >= 12 {
			late = 10 + i
		}
		h.Add(snap(now, grp("g",
			po("t", 0, kafka.NoOffset, 100+i*10),
			po("t", 1, late, 50+i),
			unowned(po("t", 2, kafka.NoOffset, 80)),
			po("u", 0, 20*i, 20*i+5),
		)))
		writeAnswers(&out, h, now, tally, now)
	}
	return out.Bytes()
}

// writeAnswers writes h's answers after its latest poll, at now: each
// group's evaluation as of each time in at, then its lag series, then the
// exact reads wanted.
func writeAnswers(out *bytes.Buffer, h *History, now time.Time, tally *equivTally, at ...time.Time) {
	fmt.Fprintf(out, "poll %d at %s\n", h.Polls(), now.Sub(t0))
	names := make([]string, 0, len(h.groups))
	for name := range h.groups {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, when := range at {
			g, ok := h.Evaluate(name, when)
			if !ok {
				continue
			}
			fmt.Fprintf(out, "  %s at +%s: %s severity %s lag %d max-time-lag %s produce %s consume %s %s observations %d complete %t\n",
				name, when.Sub(now), g.Status, g.Severity, g.TotalLag, timeLagText(g.MaxTimeLag),
				floatText(g.ProduceRate), floatText(g.ConsumeRate), catchUpText(g.CatchUp), g.Observations, g.Complete)
			for _, p := range g.Partitions {
				fmt.Fprintf(out, "    %s/%d %s committed %d log-start %d log-end %d lag %d time-lag %s produce %s consume %s %s observations %d",
					p.Topic, p.Partition, p.Status, p.Committed, p.LogStart, p.LogEnd, p.Lag, timeLagText(p.TimeLag),
					floatText(p.ProduceRate), floatText(p.ConsumeRate), catchUpText(p.CatchUp), p.Observations)
				for _, f := range []struct {
					set  bool
					name string
				}{{p.Owned, "owned"}, {p.Uncommitted, "uncommitted"}, {p.Truncated, "truncated"}} {
					if f.set {
						out.WriteString(" " + f.name)
					}
				}
				if p.Status == StatusRewind {
					fmt.Fprintf(out, " rewind %d->%d at %s", p.Rewind.High, p.Rewind.Low, p.Rewind.At.Sub(t0))
				}
				if p.ResetBy != nil {
					fmt.Fprintf(out, " reset-by %s at %s", p.ResetBy.Receipt, p.ResetBy.Time.Sub(t0))
				}
				out.WriteByte('\n')
				if tally != nil {
					tally.status[p.Status]++
					tally.kind[p.TimeLag.Kind]++
				}
			}
		}
		if series := h.GroupLagSeries(name, nil); len(series) > 0 {
			fmt.Fprintf(out, "  %s series %v\n", name, series)
		}
	}
	want := h.WantExact(1<<30, nil)
	slices.SortFunc(want, func(x, y kafka.PartitionOffsets) int {
		return compareKey(x.Topic, x.Partition, y.Topic, y.Partition)
	})
	if len(want) > 0 {
		out.WriteString("  want exact")
		for _, p := range want {
			fmt.Fprintf(out, " %s/%d", p.Topic, p.Partition)
		}
		out.WriteByte('\n')
	}
}

// floatText writes f exactly: the shortest text that reads back as f.
func floatText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func timeLagText(tl TimeLag) string {
	if !tl.Known() {
		return tl.Kind.String()
	}
	return tl.Kind.String() + ":" + floatText(tl.Seconds)
}

func catchUpText(c CatchUp) string {
	return "catch-up " + c.State.String() + ":" + floatText(c.Seconds) + ":" + floatText(c.Behind)
}
