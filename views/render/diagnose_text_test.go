package render_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/render"
)

// TestFindingTexts: every finding's message as the table, the JSON
// document and the Diagnosis tab show it, word for word: spans, times,
// sizes and rates in words, no raw seconds or milliseconds.
func TestFindingTexts(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	member := func(id string, ps ...int32) kafka.Member {
		return kafka.Member{MemberID: id, ClientID: "c-" + id, Host: "/10.0.0.1", Subscribed: []string{"t"},
			Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: ps}}}
	}
	po := func(p int32, committed, start, end int64, m string) kafka.PartitionOffsets {
		return kafka.PartitionOffsets{Topic: "t", Partition: p, Committed: committed, LogStart: start, LogEnd: end, Lag: max(end-committed, 0),
			MemberID: m}.WithOwner("c-"+m, "/10.0.0.1", nil)
	}
	ph := func(p int32, committed, end int64, s lag.Status, produce, consume float64, tl lag.TimeLag) lag.PartitionHealth {
		return lag.PartitionHealth{Topic: "t", Partition: p, Committed: committed, LogEnd: end, Lag: end - committed, Status: s,
			Owned: true, ProduceRate: produce, ConsumeRate: consume, TimeLag: tl, Observations: 10}
	}
	verdict := func(tl lag.TimeLag, ps ...lag.PartitionHealth) lag.Verdict {
		return lag.Verdict{GroupHealth: lag.GroupHealth{Partitions: ps, MaxTimeLag: tl}, Known: true, Window: 10, Observations: 10}
	}
	unmoved := func(string, int32) (time.Time, bool) { return t0.Add(-64 * time.Second), true }
	rec := func(p int32, off int64) map[kafka.CommitKey]diagnose.Record {
		return map[kafka.CommitKey]diagnose.Record{{Topic: "t", Partition: p, Offset: off}: {Offset: off, Timestamp: t0.Add(-time.Hour).UnixMilli(), Value: []byte("v"), ValueSize: 2048}}
	}
	week := lag.TimeLag{Seconds: 8*86400 + 3600, Kind: lag.TimeLagExact}
	tests := []struct {
		name string
		in   diagnose.Input
		want []string
	}{
		{"records lost", diagnose.Input{Group: &kafka.Group{Name: "g", Partitions: []kafka.PartitionOffsets{po(0, 3, 7, 10, "")}}},
			[]string{"committed offset 3 is below the log start 7: 4 records were deleted unread; it restarts at 7 (earliest) or 10 (latest)"}},
		{"beyond the log end", diagnose.Input{Group: &kafka.Group{Name: "g", Partitions: []kafka.PartitionOffsets{po(0, 9, 0, 4, "")}}},
			[]string{"committed offset 9 is 5 past the log end 4 (topic recreated or truncated): it restarts at 0 (earliest) or 4 (latest), or fails"}},
		{"open transaction", diagnose.Input{Group: &kafka.Group{Name: "g", Partitions: []kafka.PartitionOffsets{po(0, 3, 0, 8, "")}}, Now: t0,
			Reads: &diagnose.Reads{Stable: map[diagnose.TP]diagnose.StableOffsets{{Topic: "t"}: {First: 3, Last: 3}},
				Producers:    map[diagnose.TP][]diagnose.Producer{{Topic: "t"}: {{ProducerID: 7, LastTimestamp: -1, TxnStartOffset: 3}}},
				Transactions: map[int64]diagnose.Transaction{7: {TransactionalID: "tx", ProducerID: 7, State: "Ongoing", TimeoutMillis: 3600000, StartTimestamp: t0.Add(-64 * time.Second).UnixMilli()}}}},
			[]string{`the last stable offset 3 trails the log end 8 and did not move: read_committed consumers cannot pass it; transaction "tx" (producer 7, Ongoing) open 1m04s, timeout 1h00m`}},
		{"open transaction, no producer listed", diagnose.Input{Group: &kafka.Group{Name: "g", Partitions: []kafka.PartitionOffsets{po(0, 3, 0, 8, "")}},
			Reads: &diagnose.Reads{Stable: map[diagnose.TP]diagnose.StableOffsets{{Topic: "t"}: {First: 3, Last: 3}}}},
			[]string{"the last stable offset 3 trails the log end 8 and did not move: read_committed consumers cannot pass it; no producer with an open transaction was listed"}},
		{"behind retention", diagnose.Input{Group: &kafka.Group{Name: "g", Partitions: []kafka.PartitionOffsets{po(0, 3, 0, 8, "")}},
			Verdict: verdict(week, ph(0, 3, 8, lag.StatusOK, 1, 1, week)), Reads: &diagnose.Reads{Retention: map[string]int64{"t": 8 * 86400 * 1000}}},
			[]string{"the consumer is 8d01h behind and the topic keeps records 8d00h: records will be deleted unread if nothing changes"}},
		{"member not committing", diagnose.Input{
			Group:   &kafka.Group{Name: "g", Members: []kafka.Member{member("m1", 0, 1)}, Partitions: []kafka.PartitionOffsets{po(0, 10, 0, 40, "m1"), po(1, 10, 0, 40, "m1")}},
			Verdict: verdict(lag.TimeLag{}, ph(0, 10, 40, lag.StatusStall, 1, 0, lag.TimeLag{}), ph(1, 10, 40, lag.StatusStall, 1, 0, lag.TimeLag{})),
			Now:     t0, Unmoved: unmoved},
			[]string{"member c-m1 on /10.0.0.1 stopped committing on 2 of its 2 partitions while 60 records wait; last commit at least 1m04s ago: " +
				"the member is stuck or its commits are off, not a record; read its logs and commit settings"}},
		{"stalled at a record", diagnose.Input{
			Group:   &kafka.Group{Name: "g", Members: []kafka.Member{member("m1", 0, 1)}, Partitions: []kafka.PartitionOffsets{po(0, 10, 0, 40, "m1"), po(1, 50, 0, 50, "m1")}},
			Verdict: verdict(lag.TimeLag{}, ph(0, 10, 40, lag.StatusStall, 1, 0, lag.TimeLag{}), ph(1, 50, 50, lag.StatusOK, 1, 1, lag.TimeLag{})),
			Reads:   &diagnose.Reads{Records: rec(0, 10)}},
			[]string{"member c-m1 commits on its other partitions but this commit stayed at 10 over the window while 30 records wait: " +
				"the record at offset 10 (2.0 KiB, produced 2023-11-14T21:13:20.000Z) is the likely cause"}},
		{"stalled, a single partition", diagnose.Input{
			Group:   &kafka.Group{Name: "g", Members: []kafka.Member{member("m1", 0)}, Partitions: []kafka.PartitionOffsets{po(0, 10, 0, 40, "m1")}},
			Verdict: verdict(lag.TimeLag{}, ph(0, 10, 40, lag.StatusStall, 1, 0, lag.TimeLag{}))},
			[]string{"the commit of member c-m1 stayed at 10 over the window while 30 records wait: either it is stuck on the record at offset 10 (not read), " +
				"or the member stopped committing; nothing else it owns advances, so the polls cannot tell which"}},
		{"slower than producers", diagnose.Input{
			Group: &kafka.Group{Name: "g", Members: []kafka.Member{member("m1", 0, 1)}, Partitions: []kafka.PartitionOffsets{po(0, 0, 0, 800, "m1"), po(1, 0, 0, 800, "m1")}},
			Verdict: verdict(lag.TimeLag{Seconds: 50, Kind: lag.TimeLagExact},
				ph(0, 0, 800, lag.StatusOK, 15, 3.1, lag.TimeLag{}), ph(1, 0, 800, lag.StatusOK, 15, 3.1, lag.TimeLag{}))},
			[]string{"the group consumes 6.2 msg/s while 30 msg/s is produced: its lag grows 24 msg/s and its time lag (50s) 0.79s a second; " +
				"it never catches up at these rates; 1 member shares 2 partitions: more members, or faster ones, would help"}},
		{"slower than producers, a member per partition", diagnose.Input{
			Group: &kafka.Group{Name: "g", Members: []kafka.Member{member("m1", 0), member("m2", 1)}, Partitions: []kafka.PartitionOffsets{po(0, 0, 0, 800, "m1"), po(1, 0, 0, 800, "m2")}},
			Verdict: verdict(lag.TimeLag{},
				ph(0, 0, 800, lag.StatusOK, 15, 3.1, lag.TimeLag{}), ph(1, 0, 800, lag.StatusOK, 15, 3.1, lag.TimeLag{}))},
			[]string{"the group consumes 6.2 msg/s while 30 msg/s is produced: its lag grows 24 msg/s and its time lag 0.79s a second; " +
				"it never catches up at these rates; 2 members for 2 partitions: adding members cannot help, each must consume faster"}},
		{"rebalance storm", diagnose.Input{Group: &kafka.Group{Name: "g"}, Since: t0, Now: t0.Add(64 * time.Second), Events: []rebalance.Event{
			{Time: t0.Add(time.Second), Kind: rebalance.EventRebalance}, {Time: t0.Add(2 * time.Second), Kind: rebalance.EventRebalance},
			{Time: t0.Add(3 * time.Second), Kind: rebalance.EventRebalance}, {Time: t0.Add(4 * time.Second), Kind: rebalance.EventRebalance}}},
			[]string{"4 rebalances in 1m04s (more than 3): 0 members joined and 0 left; members that crash, time out or restart keep the group from consuming"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := diagnose.Diagnose(tt.in)
			var got []string
			for i := range fs {
				got = append(got, render.DiagnoseMessage(&fs[i]))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestEvidenceInWords: the tab's evidence by the unit its key names.
func TestEvidenceInWords(t *testing.T) {
	for _, tt := range []struct {
		key  string
		v    any
		want string
	}{
		{"timeoutMs", int64(3600000), "1h00m"},
		{"retentionMs", int64(604800000), "7d00h"},
		{"openForSeconds", int64(64), "1m04s"},
		{"secondsLeft", int64(691200), "8d00h"},
		{"timeLagSeconds", 28925666.5, "334d18h"},
		{"lastTimestamp", int64(1700000000000), "2023-11-14T22:13:20.000Z"},
		{"recordValueSize", int64(28), "28 B"},
		{"recordValueSize", int64(3 << 20), "3.0 MiB"},
		{"produceRate", 30.0, "30 msg/s"},
		{"lagGrowthPerSecond", 23.8, "24 msg/s"},
		{"timeLagGrowthPerSecond", 0.794, "0.794s/s"},
		{"committedOffset", int64(42), "42"},
		{"host", "/10.0.0.1", "/10.0.0.1"},
		{"transactionalId", nil, "unknown"},
		{"catchUpSeconds", nil, "never, at these rates"},
		{"stalledPartitions", []string{"t:0", "t:1"}, `["t:0","t:1"]`},
		{"membersCanHelp", false, "false"},
	} {
		if got := render.DiagnoseEvidence(tt.key, tt.v); got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.key, tt.v, got, tt.want)
		}
	}
}

// TestDiagnoseJudging: a group without a finding whose window is short
// says so, in the table and the JSON; a full one reads "no findings".
func TestDiagnoseJudging(t *testing.T) {
	gs := []render.DiagnosedGroup{
		{Group: "early", Verdict: lag.Verdict{Known: true, Window: 10, Observations: 3}},
		{Group: "done", Verdict: lag.Verdict{Known: true, Window: 10, Observations: 10}},
	}
	var b strings.Builder
	if err := render.Diagnose(&b, gs, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	if want := "early: no findings yet: judging 3/10\ndone: no findings\n"; b.String() != want {
		t.Errorf("table %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := render.DiagnoseJSON(&b, gs); err != nil {
		t.Fatal(err)
	}
	if want := `{"groups":[{"group":"early","judging":{"observations":3,"window":10},"findings":[]},{"group":"done","judging":null,"findings":[]}]}`; strings.Join(strings.Fields(b.String()), "") != want {
		t.Errorf("json %s, want %s", b.String(), want)
	}
}
