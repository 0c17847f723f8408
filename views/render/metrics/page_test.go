package metrics

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestPageMatchesFullRendering: a Page fed poll after poll writes, at
// every poll, byte for byte what AppendText and AppendOpenMetrics write
// for the same families, while groups come and go (filters), the series
// cap cuts at another group, values move and stand, and group ids need
// escaping or are not UTF-8; at every granularity.
func TestPageMatchesFullRendering(t *testing.T) {
	for _, gr := range []Granularity{ByGroup, ByTopic, ByPartition} {
		t.Run(gr.String(), func(t *testing.T) {
			l := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
			text, om := &Page{}, &Page{OpenMetrics: true}
			copied := 0
			for i := range 30 {
				s, o := evolvingPoll(i, gr)
				l.Add(s)
				fams, _ := Groups(s, l, o)
				for _, c := range []struct {
					p    *Page
					want []byte
				}{{text, fams.AppendText(nil)}, {om, fams.AppendOpenMetrics(nil)}} {
					got := c.p.Append([]byte("prefix\n"), fams)
					if !bytes.Equal(got[len("prefix\n"):], c.want) {
						gl, wl := strings.Split(string(got[len("prefix\n"):]), "\n"), strings.Split(string(c.want), "\n")
						for k := range min(len(gl), len(wl)) {
							if gl[k] != wl[k] {
								t.Fatalf("poll %d, OpenMetrics %v: line %d is %q, want %q", i, c.p.OpenMetrics, k+1, gl[k], wl[k])
							}
						}
						t.Fatalf("poll %d, OpenMetrics %v: %d lines, want %d", i, c.p.OpenMetrics, len(gl), len(wl))
					}
					_, cp := c.p.Counts()
					copied += cp
				}
			}
			if copied == 0 {
				t.Error("no group's lines were ever copied: the test covers only rewrites")
			}
		})
	}
}

// TestPageRewritesOnlyChangedGroups: on a cluster at rest only the groups
// whose values moved are written again; the others' lines are copied.
// Of 30 groups of 4 partitions, caught up, every third lags by a fixed
// 5 records on one partition, so its time lag grows with the clock; the
// rest stand still once the rates are known.
func TestPageRewritesOnlyChangedGroups(t *testing.T) {
	base := fixture.ManyGroups(30)
	for i := range base.Groups {
		ps := base.Groups[i].Partitions
		for j := range ps {
			ps[j].Committed, ps[j].Lag = ps[j].LogEnd, 0
		}
		if i%3 == 0 {
			ps[3].Committed, ps[3].Lag = ps[3].LogEnd-5, 5
		}
	}
	l := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
	p := &Page{}
	var written, copied, pairs int
	for i := range 40 {
		s := *base
		s.Time = base.Time.Add(time.Duration(i) * 5 * time.Second)
		l.Add(&s)
		fams, st := Groups(&s, l, Options{})
		want := fams.AppendText(nil)
		if got := p.Append(nil, fams); !bytes.Equal(got, want) {
			t.Fatalf("poll %d: the page differs from the full rendering", i)
		}
		written, copied = p.Counts()
		if i == 0 && (written != st.Series || copied != 0) {
			t.Fatalf("first poll: wrote %d and copied %d (group, family) pairs, want all %d written", written, copied, st.Series)
		}
		pairs = 0
		for fi := range fams.fams {
			for k := range fams.names {
				if fams.starts[fi][k+1] > fams.starts[fi][k] {
					pairs++
				}
			}
		}
	}
	// The last poll: the ten lagging groups' time lag lines change; the
	// rest of their lines and all the others' are copied. Eight families
	// have a line for every group (none has a finding).
	if written != 10 || copied != 230 || pairs != 30*8 {
		t.Errorf("at rest: wrote %d and copied %d of %d (group, family) pairs, want 10 and 230 of 240", written, copied, pairs)
	}
}

func ExamplePage() {
	s, l := judged(fixture.ManyGroups(2))
	fams, _ := Groups(s, l, Options{})
	var p Page
	page := p.Append(nil, fams)
	written, copied := p.Counts()
	fmt.Println(bytes.Equal(page, fams.AppendText(nil)), written, copied)
	// Output: true 16 0
}

// TestPageAllocatesWhatItKeeps: writing the page of a poll at rest into a
// buffer the caller gives allocates nothing once warm: no line is
// formatted into a temporary, and the spans the page keeps for the next
// poll are written into those of the Append before the last (the first
// two Appends make them, one slice a family with lines and the slice of
// them).
func TestPageAllocatesWhatItKeeps(t *testing.T) {
	s, l := judged(fixture.ManyGroups(100))
	fams, st := Groups(s, l, Options{})
	p := &Page{}
	bufs := [2][]byte{make([]byte, 0, 1<<20), make([]byte, 0, 1<<20)}
	n := 0
	write := func() {
		bufs[n%2] = p.Append(bufs[n%2][:0], fams)
		n++
	}
	lines := 0
	for _, f := range fams.fams {
		if f.len() > 0 {
			lines++
		}
	}
	// AllocsPerRun calls write once before it counts: the second Append
	// is counted, which makes the second set of spans.
	if allocs := testing.AllocsPerRun(1, write); allocs != float64(1+lines) {
		t.Errorf("a second page allocates %v times, want %d (the spans it keeps)", allocs, 1+lines)
	}
	if allocs := testing.AllocsPerRun(20, write); allocs != 0 {
		t.Errorf("a page at rest allocates %v times once warm, want 0", allocs)
	}
	if w, c := p.Counts(); w != 0 || c != st.Series {
		t.Errorf("wrote %d and copied %d (group, family) pairs, want 0 and %d", w, c, st.Series)
	}
}

// TestGroupsSizedFromTheRenderingBefore: rendered with the families of
// the poll before as SizeFrom, every family's samples and label values,
// and the groups' names and starts, are allocated once at the size they
// end at (none grows; under the series cap the group that does not fit
// is added before it is dropped, so there they may), and the families
// are the same, byte for byte, at every granularity and with the cap.
func TestGroupsSizedFromTheRenderingBefore(t *testing.T) {
	s, l := judged(fixture.ManyGroups(100))
	for _, o := range []Options{{}, {Granularity: ByTopic}, {Granularity: ByPartition}, {MaxSeries: 500}} {
		prev, _ := Groups(s, l, o)
		want := prev.AppendText(nil)
		o.SizeFrom = prev
		fams, st := Groups(s, l, o)
		if got := fams.AppendText(nil); !bytes.Equal(got, want) {
			t.Fatalf("%+v: the families differ when sized from the rendering before", o)
		}
		for _, f := range fams.fams {
			if o.MaxSeries > 0 {
				break
			}
			if cap(f.samples) != len(f.samples) || cap(f.vals) != len(f.vals) {
				t.Errorf("%+v: %s grew: %d samples in %d, %d label values in %d", o, f.name, len(f.samples), cap(f.samples), len(f.vals), cap(f.vals))
			}
		}
		if cap(fams.names) != len(fams.names) {
			t.Errorf("%+v: the names grew: %d in %d", o, len(fams.names), cap(fams.names))
		}
		for i, s := range fams.starts {
			if cap(s) != len(s) {
				t.Errorf("%+v: the starts of %s grew: %d in %d", o, fams.fams[i].name, len(s), cap(s))
			}
		}
		if o.MaxSeries > 0 && st.DroppedGroups == 0 {
			t.Errorf("%+v: nothing dropped: the cap is not exercised", o)
		}
		// Sized, a rendering allocates less than growing.
		o.SizeFrom = nil
		grown := testing.AllocsPerRun(5, func() { Groups(s, l, o) })
		o.SizeFrom = prev
		sized := testing.AllocsPerRun(5, func() { Groups(s, l, o) })
		if sized >= grown {
			t.Errorf("%+v: sized from the rendering before, %v allocations; grown, %v", o, sized, grown)
		}
	}
}

// TestGroupsFromTheRenderingBeforeAsAnew: poll after poll, while groups
// come and go (filters, the series cap), values move and stand, and
// group ids need escaping or are not UTF-8, families rendered with
// SizeFrom set to the rendering before are those of a rendering without
// it, sample for sample; a rendering of the same poll again shares the
// samples of the one before instead of allocating its own, and the one
// before is never written.
func TestGroupsFromTheRenderingBeforeAsAnew(t *testing.T) {
	for _, gr := range []Granularity{ByGroup, ByTopic, ByPartition} {
		t.Run(gr.String(), func(t *testing.T) {
			l := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
			var prev *Families
			var prevText []byte
			shared := 0
			for i := range 60 {
				s, o := evolvingPoll(i/2, gr)
				if i%2 == 0 {
					l.Add(s) // the odd polls render the same poll again
				}
				anew, wantSt := Groups(s, l, o)
				o.SizeFrom = prev
				fams, st := Groups(s, l, o)
				if st != wantSt {
					t.Fatalf("poll %d: stats %+v, want %+v", i, st, wantSt)
				}
				if !bytes.Equal(fams.AppendText(nil), anew.AppendText(nil)) || !bytes.Equal(fams.AppendOpenMetrics(nil), anew.AppendOpenMetrics(nil)) ||
					!slices.Equal(fams.names, anew.names) || !reflect.DeepEqual(fams.starts, anew.starts) {
					t.Fatalf("poll %d: the families rendered from the rendering before are not those rendered anew", i)
				}
				if prev != nil && !bytes.Equal(prev.AppendText(nil), prevText) {
					t.Fatalf("poll %d: the rendering before was written", i)
				}
				if prev != nil && i%2 == 1 {
					for fi, f := range fams.fams {
						if len(f.samples) > 0 && len(prev.fams[fi].samples) >= len(f.samples) && &f.samples[0] == &prev.fams[fi].samples[0] {
							shared++
						}
					}
				}
				prev, prevText = fams, fams.AppendText(nil)
			}
			if shared == 0 {
				t.Error("no family of a poll rendered again shares the samples of the rendering before")
			}
		})
	}
}

// TestPageUnchanged: Unchanged(fs) is true exactly when Append would
// write the bytes of the Append before, poll after poll, while groups
// come and go (filters, the series cap), values move and stand, and group
// ids need escaping or are not UTF-8; each poll is rendered twice, the
// second time unchanged. The Page left as it is when unchanged goes on
// writing what a Page that appended every poll writes.
func TestPageUnchanged(t *testing.T) {
	for _, gr := range []Granularity{ByGroup, ByTopic, ByPartition} {
		t.Run(gr.String(), func(t *testing.T) {
			l := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
			skipping, every := &Page{}, &Page{}
			var last []byte
			unchanged := 0
			for i := range 60 {
				s, o := evolvingPoll(i/2, gr)
				if i%2 == 0 {
					l.Add(s) // the odd polls render the same poll again
				}
				fams, _ := Groups(s, l, o)
				want := every.Append(nil, fams)
				same := skipping.Unchanged(fams)
				if same != (last != nil && bytes.Equal(want, last)) {
					t.Fatalf("poll %d: Unchanged says %v, but the page is the same as the one before: %v", i, same, !same)
				}
				if same {
					unchanged++
				} else if got := skipping.Append(nil, fams); !bytes.Equal(got, want) {
					t.Fatalf("poll %d: a page that skipped unchanged polls writes another page", i)
				}
				last = want
			}
			if unchanged < 30 {
				t.Errorf("%d polls of 60 unchanged, want at least the 30 rendered again", unchanged)
			}
		})
	}
}

// evolvingPoll is poll k of the evolving cluster the page tests render
// (fixture.Evolving) with three groups whose ids need escaping or are
// not UTF-8, and the options it is rendered with at granularity gr: in
// turn none, one group allowed, a series cap, empty groups skipped.
func evolvingPoll(k int, gr Granularity) (*kafka.Snapshot, Options) {
	s := fixture.Evolving(k)
	for _, n := range []string{"a\"b\\c\nd", "coll\xff", "zz\xfe"} {
		s.Groups = append(s.Groups, kafka.Group{Name: n, Type: kafka.TypeClassic, State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{fixture.Part("t", 0, int64(5+k/7), 0, 9, nil)}})
	}
	sortGroups(s)
	o := Options{Granularity: gr}
	switch k % 5 {
	case 1:
		o.Filter, _ = CompileFilter(nil, []string{s.Groups[k%len(s.Groups)].Name}, false)
	case 2:
		o.MaxSeries = 3 * 10 * (1 + int(gr)*4)
	case 3:
		o.Filter, _ = CompileFilter(nil, nil, true)
	}
	return s, o
}
