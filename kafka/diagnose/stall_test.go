package diagnose

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// part is one partition of a table test: its offsets, its status and its
// rates.
type part struct {
	p                 int32
	member            string
	committed, end    int64
	status            lag.Status
	produce, consume  float64
	stableFirst, last int64 // a trailing last stable offset when last > 0
}

// tableInput builds a group of topic "t" from parts, with members m1, m2,
// ... as the parts name them, judged over a full window of 10.
func tableInput(parts ...part) Input {
	g := &kafka.Group{Name: "g", State: kafka.StateStable}
	v := lag.Verdict{Known: true, LagKnown: true, Window: 10, Observations: 10}
	reads := &Reads{Stable: map[TP]StableOffsets{}}
	members := map[string]*kafka.Member{}
	var order []string
	for _, pt := range parts {
		lagN := pt.end - pt.committed
		po := kafka.PartitionOffsets{
			Topic: "t", Partition: pt.p, Committed: pt.committed, LogStart: 0, LogEnd: pt.end, Lag: lagN,
		}
		po.SetOwner(pt.member, "c-"+pt.member, "/h-"+pt.member, nil)
		g.Partitions = append(g.Partitions, po)
		v.Partitions = append(v.Partitions, lag.PartitionHealth{
			Topic: "t", Partition: pt.p, Committed: pt.committed, LogEnd: pt.end, Lag: lagN, Status: pt.status,
			Owned: pt.member != "", ProduceRate: pt.produce, ConsumeRate: pt.consume, Observations: 10,
		})
		if pt.last > 0 {
			reads.Stable[TP{"t", pt.p}] = StableOffsets{First: pt.stableFirst, Last: pt.last}
		}
		if pt.member == "" {
			continue
		}
		m := members[pt.member]
		if m == nil {
			m = &kafka.Member{MemberID: pt.member, ClientID: "c-" + pt.member, Host: "/h-" + pt.member, Subscribed: []string{"t"},
				Assignment: []kafka.TopicPartitions{{Topic: "t"}}}
			members[pt.member] = m
			order = append(order, pt.member)
		}
		m.Assignment[0].Partitions = append(m.Assignment[0].Partitions, pt.p)
	}
	for _, id := range order {
		g.Members = append(g.Members, *members[id])
	}
	t0 := time.Unix(1_700_000_000, 0)
	return Input{Group: g, Verdict: v, PartitionCounts: map[string]int32{"t": int32(len(parts))}, Reads: reads,
		Since: t0, Now: t0.Add(time.Minute),
		Unmoved: func(string, int32) (time.Time, bool) { return t0.Add(-4 * time.Minute), true }}
}

func stall(p int32, member string) part {
	return part{p: p, member: member, committed: 10, end: 40, status: lag.StatusStall, produce: 0.5, consume: 0}
}

func moving(p int32, member string, lagN int64) part {
	return part{p: p, member: member, committed: 100, end: 100 + lagN, status: lag.StatusOK, produce: 1, consume: 1}
}

func idle(p int32, member string) part {
	return part{p: p, member: member, committed: 5, end: 5, status: lag.StatusOK, produce: 0, consume: 0}
}

// TestStallsByMember: what a member's other partitions do decides
// between the member and the record.
func TestStallsByMember(t *testing.T) {
	tests := []struct {
		name  string
		parts []part
		want  []string // id@where
		blame []bool   // per stalled-at-record: the record is blamed
	}{
		{"all six stalled", []part{stall(0, "m1"), stall(1, "m1"), stall(2, "m1"), stall(3, "m1"), stall(4, "m1"), stall(5, "m1")},
			[]string{"member-not-committing@m1"}, nil},
		// The member still commits on its sixth partition, which keeps
		// up: the member is not stuck, so each stalled commit is its
		// record's (never member-not-committing while it commits).
		{"five of six stalled, the sixth committing and keeping up", []part{stall(0, "m1"), stall(1, "m1"), stall(2, "m1"), stall(3, "m1"), stall(4, "m1"), moving(5, "m1", 3)},
			[]string{"stalled-at-record@t:0", "stalled-at-record@t:1", "stalled-at-record@t:2", "stalled-at-record@t:3", "stalled-at-record@t:4"},
			[]bool{true, true, true, true, true}},
		// The same member with a backlog on the partition it commits:
		// one slow member working through its partitions in turn.
		// Its waiting partitions have no finding of their own.
		{"two stalled, the third committing with a backlog", []part{stall(0, "m1"), stall(1, "m1"), moving(2, "m1", 500)},
			[]string{"slower-than-producers@"}, nil},
		{"two stalled, three advancing with lag", []part{stall(0, "m1"), stall(1, "m1"), moving(2, "m1", 2), moving(3, "m1", 2), moving(4, "m1", 2)},
			[]string{"stalled-at-record@t:0", "stalled-at-record@t:1"}, []bool{true, true}},
		{"one stalled, two advancing caught up", []part{stall(0, "m1"), moving(1, "m1", 0), moving(2, "m1", 0)},
			[]string{"stalled-at-record@t:0"}, []bool{true}},
		{"a single partition", []part{stall(0, "m1")},
			[]string{"stalled-at-record@t:0"}, []bool{false}},
		{"one stalled, the other idle", []part{stall(0, "m1"), idle(1, "m1")},
			[]string{"stalled-at-record@t:0"}, []bool{false}},
		{"two stalled, one behind an open transaction", []part{stall(0, "m1"), {p: 1, member: "m1", committed: 10, end: 40, status: lag.StatusStall, stableFirst: 10, last: 10}},
			[]string{"stalled-at-record@t:0", "stuck-behind-open-transaction@t:1"}, []bool{false}},
		{"two members: one stuck, one stalled at a record", []part{stall(0, "m1"), stall(1, "m1"), stall(2, "m2"), moving(3, "m2", 1)},
			[]string{"member-not-committing@m1", "stalled-at-record@t:2"}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Diagnose(tableInput(tt.parts...))
			var got []string
			var blame []bool
			for _, f := range fs {
				where := f.Member
				if f.Partition >= 0 {
					where = tpArg(f.Topic, f.Partition)
				}
				got = append(got, f.ID+"@"+where)
				if f.ID == IDStalledAtRecord {
					blame = append(blame, strings.Contains(f.Message.Format, "likely cause"))
					shift := false
					for _, n := range f.Next {
						shift = shift || reflect.DeepEqual(n[len(n)-4:len(n)-2], []string{"--shift-by", "1"})
					}
					if shift != blame[len(blame)-1] {
						t.Errorf("%s: a skip suggested %v with the record blamed %v", f.ID, shift, blame[len(blame)-1])
					}
				}
				if f.ID == IDMemberNotCommitting {
					for _, n := range f.Next {
						if strings.Contains(strings.Join(n, " "), "--shift-by") {
							t.Errorf("member-not-committing suggests skipping records: %q", n)
						}
					}
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("findings %v, want %v", got, tt.want)
			}
			if !reflect.DeepEqual(blame, tt.blame) {
				t.Errorf("record blamed %v, want %v", blame, tt.blame)
			}
		})
	}
}

// TestMemberNotCommittingEvidence: the member, its partitions and the
// age of its youngest stalled commit.
func TestMemberNotCommittingEvidence(t *testing.T) {
	in := tableInput(stall(0, "m1"), stall(1, "m1"), idle(2, "m1"))
	fs := Diagnose(in)
	if len(fs) != 1 || fs[0].ID != IDMemberNotCommitting || fs[0].Severity != lag.SeverityErr {
		t.Fatalf("findings %+v", fs)
	}
	want := Evidence{
		{"memberId", "m1"}, {"clientId", "c-m1"}, {"host", "/h-m1"}, {"partitions", int64(3)}, {"stalled", int64(2)},
		{"advancing", int64(0)}, {"lag", int64(60)}, {"stalledPartitions", []string{"t:0", "t:1"}}, {"lastCommitAgeSeconds", int64(300)},
		{"commitRhythmSeconds", nil},
	}
	if !reflect.DeepEqual(fs[0].Evidence, want) {
		t.Errorf("evidence %#v\nwant %#v", fs[0].Evidence, want)
	}
	in.Unmoved = nil
	if v, _ := Diagnose(in)[0].Evidence.Get("lastCommitAgeSeconds"); v != nil {
		t.Errorf("age %v without Unmoved, want null", v)
	}
}

// TestSlowerThanProducers: the rule's bounds, each on its own evidence.
func TestSlowerThanProducers(t *testing.T) {
	slow := func(p int32, member string, committed, end int64, produce, consume float64) part {
		return part{p: p, member: member, committed: committed, end: end, status: lag.StatusOK, produce: produce, consume: consume}
	}
	three := func(member func(int) string, lagN int64, produce, consume float64) []part {
		var ps []part
		for i := range 3 {
			ps = append(ps, slow(int32(i), member(i), 0, lagN, produce, consume))
		}
		return ps
	}
	one := func(int) string { return "m1" }
	each := func(i int) string { return "m" + string(rune('1'+i)) }
	tests := []struct {
		name    string
		in      Input
		want    bool
		canHelp bool
	}{
		{"a third of what arrives, one member", tableInput(three(one, 500, 10, 10.0/3)...), true, true},
		{"as many members as partitions", tableInput(three(each, 500, 10, 10.0/3)...), true, false},
		{"within 10% of production", tableInput(three(one, 500, 10, 9.1)...), false, false},
		{"11% below production", tableInput(three(one, 500, 10, 8.9)...), true, true},
		{"a lag within 10s of production", tableInput(three(one, 100, 10, 1)...), false, false},
		{"a lag of 10 records or fewer", tableInput(three(one, 3, 0.1, 0)...), false, false},
		{"nothing produced", tableInput(three(one, 500, 0, 0)...), false, false},
		{"stalled partitions are the member's", tableInput(stall(0, "m1"), stall(1, "m1")), false, false},
	}
	// The header's held catch-up says the group closes its lag: the
	// finding waits until it says otherwise, never contradicting it.
	catching := tableInput(three(one, 500, 10, 10.0/3)...)
	catching.Verdict.CatchUp = lag.CatchUp{State: lag.CatchingUp, Seconds: 300}
	behind := tableInput(three(one, 500, 10, 10.0/3)...)
	behind.Verdict.CatchUp = lag.CatchUp{State: lag.FallingBehind, Behind: 20}
	tests = append(tests, []struct {
		name    string
		in      Input
		want    bool
		canHelp bool
	}{{"the header says catching up", catching, false, false}, {"the header says falling behind", behind, true, true}}...)
	short := tableInput(three(one, 500, 10, 1)...)
	short.Verdict.Observations = 9
	tests = append(tests, struct {
		name    string
		in      Input
		want    bool
		canHelp bool
	}{"a window short of one observation", short, false, false})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f *Finding
			fs := Diagnose(tt.in)
			for i := range fs {
				if fs[i].ID == IDSlowerThanProducers {
					f = &fs[i]
				}
			}
			if (f != nil) != tt.want {
				t.Fatalf("slower-than-producers %v, want %v: %v", f != nil, tt.want, fs)
			}
			if f == nil {
				return
			}
			if v, _ := f.Evidence.Get("membersCanHelp"); v != tt.canHelp {
				t.Errorf("membersCanHelp %v, want %v", v, tt.canHelp)
			}
			if got := strings.Contains(f.Message.Format, "adding members cannot help"); got == tt.canHelp {
				t.Errorf("message %q: says adding members cannot help %v, with membersCanHelp %v", f.Message.Format, got, tt.canHelp)
			}
		})
	}
	f := Diagnose(tableInput(three(one, 500, 10, 2.5)...))[0]
	want := Evidence{
		{"produceRate", 30.0}, {"consumeRate", 7.5}, {"lagGrowthPerSecond", 22.5}, {"lag", int64(1500)},
		{"timeLagSeconds", nil}, {"timeLagKind", "unknown"}, {"timeLagGrowthPerSecond", 0.75},
		{"members", int64(1)}, {"partitions", int64(3)}, {"membersCanHelp", true}, {"catchUpSeconds", nil},
	}
	if !reflect.DeepEqual(f.Evidence, want) {
		t.Errorf("evidence %#v\nwant %#v", f.Evidence, want)
	}
}

// TestGlance: the cause next to a verdict is the most severe finding's,
// shown only when it is as severe as the verdict.
func TestGlance(t *testing.T) {
	in := tableInput(stall(0, "m1"), stall(1, "m1"))
	g := GlanceAt(in)
	if !g.Err || g.Cause != "member not committing" || g.CauseSeverity != lag.SeverityErr {
		t.Fatalf("glance %+v", g)
	}
	errV := lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusStall, Severity: lag.SeverityErr}, Known: true, Window: 10, Observations: 10}
	warnV := lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusWarn, Severity: lag.SeverityWarn}, Known: true, Window: 10, Observations: 10}
	okV := lag.Verdict{Known: true, Window: 10, Observations: 10}
	if c := g.For(&errV); c != "member not committing" {
		t.Errorf("ERR: %q", c)
	}
	if c := g.For(&okV); c != "" {
		t.Errorf("OK: %q", c)
	}
	slow := Glance{Cause: "slower than producers", CauseSeverity: lag.SeverityWarn}
	if c := slow.For(&warnV); c != "slower than producers" {
		t.Errorf("WARN: %q", c)
	}
	if c := slow.For(&errV); c != "" {
		t.Errorf("a WARN finding next to an ERR: %q", c)
	}
	if Cause(IDStalledAtRecord) != "" || Cause(IDNoCommits) != "" || Cause(IDOpenTransaction) != "open txn" || Cause(IDRecordsLost) != "lost to retention" {
		t.Error("causes")
	}
}

// TestGlanceNoMembers: a STOP of a group without members is caused by
// that, on every screen that asks the glance (the groups list, health),
// and only a STOP is.
func TestGlanceNoMembers(t *testing.T) {
	since := time.Date(2026, 12, 2, 9, 14, 5, 0, time.Local)
	stop := lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusStop, Severity: lag.SeverityErr}, Known: true, Window: 10, Observations: 10}
	in := Input{Verdict: stop, NoMembersSince: since}
	if c := GlanceAt(in).For(&stop); c != "no members since 09:14:05" {
		t.Errorf("stopped: %q", c)
	}
	in.NoMembersWhole = true
	if c := GlanceAt(in).For(&stop); c != "no members while watched" {
		t.Errorf("never running: %q", c)
	}
	warn := lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusWarn, Severity: lag.SeverityWarn}, Known: true, Window: 10, Observations: 10}
	in.Verdict = warn
	if c := GlanceAt(in).For(&warn); c != "" {
		t.Errorf("a WARN is not caused by having no members: %q", c)
	}
	in.Verdict, in.NoMembersSince = stop, time.Time{}
	if c := GlanceAt(in).For(&stop); c != "" {
		t.Errorf("unknown membership: %q", c)
	}
}

// TestPending: a verdict short of its window is judging; a full one, one
// that cannot be judged, one already decided (an Empty group's standing
// commit is ERR STOP on one observation: diagnose said "judging 1/7" for
// as long as it was watched) or one that waits for a reason of its own
// is not.
func TestPending(t *testing.T) {
	for _, tt := range []struct {
		v    lag.Verdict
		want string
	}{
		{lag.Verdict{Known: true, Window: 10, Observations: 3}, "judging 3/10"},
		{lag.Verdict{Known: true, Window: 10, Observations: 10}, ""},
		{lag.Verdict{Window: 10, Observations: 3}, ""},
		{lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusStop, Severity: lag.SeverityErr}, Known: true, Window: 7, Observations: 1}, ""},
		{lag.Verdict{GroupHealth: lag.GroupHealth{Wait: lag.Wait{Kind: lag.WaitRhythm}}, Known: true, Window: 10, Observations: 1}, ""},
	} {
		if got := Pending(tt.v); got != tt.want {
			t.Errorf("Pending(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// withMoves gives in a history (Input.Series) of polls every 10s from
// two minutes before Since to Now, in which every partition's commit
// moved at the offsets (seconds from Since) given.
func withMoves(in Input, moves ...int) Input {
	since := in.Since
	in.Series = func(_ string, _ int32, dst []lag.Sample) []lag.Sample {
		c := int64(0)
		for at := -120; !since.Add(time.Duration(at) * time.Second).After(in.Now); at += 10 {
			if slices.Contains(moves, at) {
				c += 5
			}
			dst = append(dst, lag.Sample{Time: since.Add(time.Duration(at) * time.Second), Committed: c, LogEnd: 40, Lag: 40 - c})
		}
		return dst
	}
	return in
}

// TestMemberNotCommittingWaitsForItsRhythm: a member's partitions that
// stand still are its fault only once they stood longer than 1.5 times
// its own rhythm, the longest gap between its commits in the history.
func TestMemberNotCommittingWaitsForItsRhythm(t *testing.T) {
	if lag.RhythmFactor < 1 || lag.RhythmFactor >= 3 {
		t.Fatalf("the cases below assume a rhythm factor from 1 to 3, not %v", lag.RhythmFactor)
	}
	base := tableInput(stall(0, "m1"), stall(1, "m1")) // Now is Since + 60s
	for _, tt := range []struct {
		name  string
		moves []int
		want  []string
		// rhythm is the evidence's commitRhythmSeconds.
		rhythm any
	}{
		// Every 30s until 30s before Since: silent 90s, three times
		// its rhythm, past lag.RhythmFactor times it.
		{"commits every 30s, silent 90s", []int{-90, -60, -30}, []string{"member-not-committing@m1"}, int64(30)},
		// Every 50s: silent 50s, within 75s.
		{"commits every 50s, silent 50s", []int{-90, -40, 10}, nil, nil},
		// Once, 100s after the history began: at least 100s apart,
		// silent 80s.
		{"one commit in the history", []int{-20}, nil, nil},
		// Nothing moved in three minutes of history.
		{"no commit in the history", nil, []string{"member-not-committing@m1"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := Diagnose(withMoves(base, tt.moves...))
			var got []string
			for _, f := range fs {
				got = append(got, f.ID+"@"+f.Member)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("findings %v, want %v", got, tt.want)
			}
			if len(fs) == 0 {
				return
			}
			if v, _ := fs[0].Evidence.Get("commitRhythmSeconds"); v != tt.rhythm {
				t.Errorf("commitRhythmSeconds %v, want %v", v, tt.rhythm)
			}
			if tt.rhythm != nil && !strings.Contains(fs[0].Message.Format, "it committed at least every %s before") {
				t.Errorf("message %q does not give the rhythm", fs[0].Message.Format)
			}
		})
	}
}

// TestSlowMemberInTurnIsSlowerThanProducers is the demo's analytics-slow:
// one member working through its partitions in turn, the one it serves
// committing, the others standing with lag. The header says falling
// behind; the findings say the same (slower-than-producers, counting the
// waiting partitions), never member-not-committing nor a record to blame,
// and the CAUSE next to a WARN verdict is "slower than producers".
func TestSlowMemberInTurnIsSlowerThanProducers(t *testing.T) {
	waiting := func(p int32) part {
		return part{p: p, member: "m1", committed: 10, end: 310, status: lag.StatusStall, produce: 2, consume: 0}
	}
	served := part{p: 2, member: "m1", committed: 400, end: 700, status: lag.StatusOK, produce: 2, consume: 2.0}
	in := withMoves(tableInput(waiting(0), waiting(1), served), -110, -80, -50, -20, 50)
	fs := Diagnose(in)
	if got := ids2(fs); !reflect.DeepEqual(got, []string{"WARN slower-than-producers"}) {
		t.Fatalf("findings %v, want slower-than-producers alone", got)
	}
	if v, _ := fs[0].Evidence.Get("produceRate"); v != 6.0 {
		t.Errorf("produceRate %v, want 6 (the waiting partitions count)", v)
	}
	warn := lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusWarn, Severity: lag.SeverityWarn}, Known: true, Window: 10, Observations: 10}
	if c := GlanceAt(in).For(&warn); c != "slower than producers" {
		t.Errorf("cause next to WARN %q, want slower than producers", c)
	}
	stallV := lag.Verdict{GroupHealth: lag.GroupHealth{Status: lag.StatusStall, Severity: lag.SeverityErr}, Known: true, Window: 10, Observations: 10}
	if c := GlanceAt(in).For(&stallV); c == "member not committing" {
		t.Errorf("cause next to ERR STALL %q while the member commits", c)
	}
}

func ids2(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Severity.String()+" "+f.ID)
	}
	return out
}
