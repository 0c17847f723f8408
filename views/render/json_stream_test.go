package render_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/render"
)

// streamedStrings are what a broker may name things: plain ASCII, what JSON
// escapes (quotes, backslashes, controls, U+2028), what a terminal acts on
// or hides (ESC, DEL, C1, bidi overrides, zero-width characters), invalid
// UTF-8, wide and combining characters, HTML characters JSON keeps.
var streamedStrings = []string{
	"", "orders", "a<b&c>", `q"uo\te`, "tab\there", "nl\nx\r\b\f\x00\x01\x1f",
	"esc\x1b[31mred", "del\x7f", "c1\u0085\u009b", "bidi\u202e\u2066x", "zw\u200b\u200d\ufeff",
	"ls\u2028ps\u2029", "bad\xff\xfe", "\xc3", "日本語", "emoji😀🇫🇷", "e\u0301", "\U0010ffff", "/10.0.0.1",
}

// randomGroup is a group of any type with members, partitions and errors
// drawn from r, strings from streamedStrings.
func randomGroup(r *rand.Rand, i int) *kafka.Group {
	s := func() string { return streamedStrings[r.IntN(len(streamedStrings))] }
	off := func() int64 {
		if r.IntN(4) == 0 {
			return kafka.NoOffset
		}
		return r.Int64N(1 << 40)
	}
	types := []kafka.GroupType{kafka.TypeClassic, kafka.TypeClassic, kafka.TypeConsumer, kafka.TypeShare, kafka.TypeStreams, "future"}
	g := &kafka.Group{
		Name: fmt.Sprintf("g%d-%s", i, s()), Type: types[r.IntN(len(types))], ProtocolType: s(), State: s(), Assignor: s(),
		GroupEpoch: r.Int32N(100), AssignmentEpoch: r.Int32N(100), OffsetsPartition: int32(r.IntN(60)) - 10,
		Coordinator: kafka.Broker{ID: int32(r.IntN(5)) - 1, Host: s(), Port: r.Int32N(65536)},
	}
	if r.IntN(5) == 0 {
		g.Err = errors.New(s())
	}
	if g.Type == kafka.TypeShare {
		g.Share = &kafka.ShareInfo{LagSource: []string{"", kafka.ShareLagBroker, kafka.ShareLagLogEnd}[r.IntN(3)]}
	}
	for m := range r.IntN(4) {
		mem := kafka.Member{MemberID: fmt.Sprintf("m%d%s", m, s()), InstanceID: s(), ClientID: s(), Host: s(), Rack: s(),
			SubscribedRegex: s(), MemberEpoch: r.Int32N(50)}
		for range r.IntN(3) {
			mem.Subscribed = append(mem.Subscribed, s())
		}
		for range r.IntN(3) {
			tp := kafka.TopicPartitions{Topic: s()}
			for range r.IntN(4) {
				tp.Partitions = append(tp.Partitions, r.Int32N(100))
			}
			mem.Assignment = append(mem.Assignment, tp)
			if r.IntN(2) == 0 {
				mem.Target = append(mem.Target, tp)
			}
		}
		if r.IntN(3) == 0 {
			// A classic leader's join metadata: garbage or empty, so
			// the leader object shows or not.
			mem.JoinMetadata = []byte(s())
		}
		g.Members = append(g.Members, mem)
	}
	if g.Type == kafka.TypeStreams {
		g.Streams = &kafka.StreamsInfo{GroupEpoch: 1, TargetAssignmentEpoch: 2, TopologyEpoch: int32(r.IntN(3)) - 1,
			Subtopologies: []kafka.Subtopology{{ID: s(), SourceTopics: []string{s()}, RepartitionSinkTopics: []string{s()},
				StateChangelogTopics: []kafka.InternalTopic{{Topic: s(), Partitions: 3, ReplicationFactor: 1}}}}}
		for _, m := range g.Members {
			g.Streams.Members = append(g.Streams.Members, kafka.StreamsMember{MemberID: m.MemberID, ProcessID: s(), ClientID: s(),
				Host: s(), UserEndpoint: s(), ClientTags: []kafka.ClientTag{{Key: s(), Value: s()}},
				Tasks: kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: s(), Partitions: []int32{0, 2}}}}})
		}
	}
	for p := range r.IntN(6) {
		po := kafka.PartitionOffsets{Topic: s(), Partition: int32(p), Committed: off(), LeaderEpoch: int32(r.IntN(4)) - 1,
			Metadata: s(), LogStart: off(), LogEnd: off(), Lag: off(), MemberID: s()}.WithOwner(s(), s(), nil)
		if r.IntN(3) == 0 {
			po.StableTrails, po.LastStable = true, r.Int64N(1<<40)
		}
		if r.IntN(6) == 0 {
			po.Err = errors.New(s())
		}
		if g.Type == kafka.TypeShare {
			var owners []string
			for range r.IntN(3) {
				owners = append(owners, s())
			}
			po.SetOwner(po.MemberID, po.ClientID(), po.Host(), owners)
		}
		g.Partitions = append(g.Partitions, po)
	}
	return g
}

// randomTimeLags are time lags of every kind, some in the ranges
// encoding/json writes with an exponent.
func randomTimeLags(_ *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag {
	seconds := []float64{0, 0.0004, 1e-7, 12.4004, 184, 86400 * 365, 3e21, 1.5e300}
	switch p.Partition % 3 {
	case 0:
		return lag.TimeLag{}
	case 1:
		return lag.TimeLag{Kind: lag.TimeLagCaughtUp}
	}
	return lag.TimeLag{Seconds: seconds[int(p.LogEnd&0x7fffffff)%len(seconds)], Kind: lag.TimeLagExact}
}

// assertSameDocument checks that the streamed document of groups is, byte
// for byte, the document EncodeJSON writes for them as one value.
func assertSameDocument(t *testing.T, what string, groups []*kafka.Group, opts render.JSONOptions) {
	t.Helper()
	var streamed, whole bytes.Buffer
	if err := render.JSONWith(&streamed, groups, opts); err != nil {
		t.Fatalf("%s: streamed: %v", what, err)
	}
	if err := render.DocumentJSON(&whole, groups, opts); err != nil {
		t.Fatalf("%s: whole: %v", what, err)
	}
	a, b := streamed.Bytes(), whole.Bytes()
	if bytes.Equal(a, b) {
		return
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-200, 0)
	t.Fatalf("%s: the streamed document (%d bytes) differs from the whole one (%d bytes) at byte %d:\nstreamed: %q\nwhole:    %q",
		what, len(a), len(b), i, a[lo:min(i+100, len(a))], b[lo:min(i+100, len(b))])
}

// TestStreamedJSONEqualsDocument: the document JSONWith streams group by
// group is the one EncodeJSON writes for all groups at once, for the
// fixtures of every group type and for 3,000 random groups of every type
// with hostile strings, with and without time lags, and for no groups.
func TestStreamedJSONEqualsDocument(t *testing.T) {
	fixtures := []*kafka.Group{ordersGroup(), idleGroup(), newGroup(), brokenGroup(), staticGroup(), longGroup(), simRangeGroup()}
	for _, h := range streamedStrings {
		fixtures = append(fixtures, hostileGroup(h))
	}
	assertSameDocument(t, "no groups", nil, render.JSONOptions{})
	assertSameDocument(t, "fixtures", fixtures, render.JSONOptions{})
	assertSameDocument(t, "fixtures with time lags", fixtures, render.JSONOptions{TimeLag: fixedTimeLags})

	r := rand.New(rand.NewPCG(10, 1))
	var groups []*kafka.Group
	kinds := map[kafka.GroupType]int{}
	leaders := 0
	for i := range 3000 {
		g := randomGroup(r, i)
		kinds[g.Type]++
		groups = append(groups, g)
	}
	var doc bytes.Buffer
	if err := render.JSON(&doc, groups); err != nil {
		t.Fatal(err)
	}
	leaders = bytes.Count(doc.Bytes(), []byte(`"leader": {`))
	// The random groups cover every path of the stream.
	for _, typ := range []kafka.GroupType{kafka.TypeClassic, kafka.TypeConsumer, kafka.TypeShare, kafka.TypeStreams, "future"} {
		if kinds[typ] < 100 {
			t.Fatalf("only %d random groups of type %s", kinds[typ], typ)
		}
	}
	if leaders < 10 {
		t.Fatalf("only %d random groups show a leader", leaders)
	}
	assertSameDocument(t, "random groups", groups, render.JSONOptions{})
	assertSameDocument(t, "random groups with time lags", groups, render.JSONOptions{TimeLag: randomTimeLags})
	for i, g := range groups[:300] {
		assertSameDocument(t, fmt.Sprintf("random group %d alone", i), []*kafka.Group{g}, render.JSONOptions{})
	}
}

// FuzzStreamedJSON: whatever a broker names a group, a member, a topic or
// an error, the streamed document equals the whole one.
func FuzzStreamedJSON(f *testing.F) {
	for _, s := range streamedStrings {
		f.Add(s, s+"x", int64(5))
	}
	f.Fuzz(func(t *testing.T, a, b string, n int64) {
		g := hostileGroup(a)
		g.Partitions[0].Metadata = b
		g.Partitions[0].Committed = n
		g.Members[1].ClientID = b
		c := hostileGroup(b)
		c.Type = kafka.TypeConsumer
		c.Err = nil
		assertSameDocument(t, "fuzzed", []*kafka.Group{g, c}, render.JSONOptions{TimeLag: fixedTimeLags})
	})
}
