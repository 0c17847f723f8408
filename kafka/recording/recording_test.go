package recording

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
)

// asRecorded is s as a recording gives it back: errors keep their words
// only, times are in the local zone.
func asRecorded(s *kafka.Snapshot) *kafka.Snapshot {
	c := *s
	c.Time = s.Time.In(time.Local)
	c.ListErr = recErr(s.ListErr)
	c.Groups = make([]kafka.Group, len(s.Groups))
	for i, g := range s.Groups {
		g.Err = recErr(g.Err)
		ps := g.Partitions
		if ps != nil {
			ps = make([]kafka.PartitionOffsets, len(g.Partitions))
			for j, p := range g.Partitions {
				p.Err = recErr(p.Err)
				ps[j] = p
			}
		}
		g.Partitions = ps
		c.Groups[i] = g
	}
	return &c
}

func recErr(err error) error {
	if err == nil {
		return nil
	}
	return Error(err.Error())
}

// hostile is a snapshot whose names are what a consumer may choose.
func hostile(t time.Time) *kafka.Snapshot {
	s := fixture.Snapshot(t, 0)
	g := &s.Groups[0]
	g.Name = "\x1b]0;pwned\x07evil\xff\xfe"
	g.Members = append([]kafka.Member(nil), g.Members...)
	g.Members[0].ClientID = "client\x00\r\n\x1b[2J"
	g.Members[0].JoinMetadata = []byte{0, 1, 2, 0xff}
	s.Groups[0], s.Groups[len(s.Groups)-1] = s.Groups[len(s.Groups)-1], s.Groups[0]
	sortGroups(s)
	return s
}

func sortGroups(s *kafka.Snapshot) {
	gs := s.Groups
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && gs[j].Name < gs[j-1].Name; j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

func record(tb testing.TB, h Header, polls []Poll) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		tb.Fatal(err)
	}
	for i, p := range polls {
		if err := w.Write(p); err != nil {
			tb.Fatalf("poll %d: %v", i, err)
		}
	}
	if w.Size() != int64(buf.Len()) || w.Polls() != len(polls) {
		tb.Fatalf("Size %d Polls %d, wrote %d bytes and %d polls", w.Size(), w.Polls(), buf.Len(), len(polls))
	}
	return buf.Bytes()
}

func readAll(t *testing.T, b []byte) (*Reader, []*Poll) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out []*Poll
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return r, out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
}

func evolvingPolls(n int) []Poll {
	var polls []Poll
	for i := range n {
		s := fixture.Evolving(i)
		p := Poll{Time: s.Time, Snapshot: s}
		if i%3 == 1 {
			p.Exact = map[kafka.CommitKey]kafka.RecordTime{
				{Topic: "orders", Partition: 0, Offset: int64(100 + i)}: {Offset: int64(101 + i), Timestamp: time.UnixMilli(1_741_944_000_000 + int64(i)).In(time.Local)},
				{Topic: "payments", Partition: 2, Offset: 7}:            {Offset: 7, NoRecords: true},
				{Topic: "audit-log", Partition: 1, Offset: 3}:           {Err: Error("TOPIC_AUTHORIZATION_FAILED")},
			}
		}
		polls = append(polls, p)
	}
	return polls
}

func TestRoundTrip(t *testing.T) {
	h := Header{Version: Version, Started: fixture.Epoch.In(time.Local), Refresh: 5 * time.Second, Window: time.Minute,
		Groups: []string{"a", "b\x1b"}, Cluster: []string{"kafka-1:9092"}, Program: "kgroups test"}
	polls := evolvingPolls(30)
	// A failed poll, a poll with hostile names, and a group that leaves
	// and comes back.
	polls[12] = Poll{Time: polls[12].Time, Err: errors.New("dial tcp 10.0.0.1:9092: connection refused")}
	polls[20].Snapshot = hostile(polls[20].Snapshot.Time)
	gone := *polls[25].Snapshot
	gone.Groups = gone.Groups[1:]
	polls[25].Snapshot = &gone

	r, got := readAll(t, record(t, h, polls))
	if !reflect.DeepEqual(r.Header, h) {
		t.Fatalf("header\n got %#v\nwant %#v", r.Header, h)
	}
	if len(got) != len(polls) || r.Torn() != nil {
		t.Fatalf("read %d polls (torn: %v), wrote %d", len(got), r.Torn(), len(polls))
	}
	for i, p := range polls {
		g := got[i]
		if !g.Time.Equal(p.Time) {
			t.Fatalf("poll %d: time %v, want %v", i, g.Time, p.Time)
		}
		if (p.Err == nil) != (g.Err == nil) || (p.Err != nil && p.Err.Error() != g.Err.Error()) {
			t.Fatalf("poll %d: error %v, want %v", i, g.Err, p.Err)
		}
		if !reflect.DeepEqual(g.Exact, p.Exact) {
			t.Fatalf("poll %d: exact reads\n got %#v\nwant %#v", i, g.Exact, p.Exact)
		}
		if p.Snapshot == nil {
			if g.Snapshot != nil {
				t.Fatalf("poll %d: a failed poll read back with a snapshot", i)
			}
			continue
		}
		if want := asRecorded(p.Snapshot); !reflect.DeepEqual(g.Snapshot, want) {
			t.Fatalf("poll %d differs:\n got %+v\nwant %+v", i, g.Snapshot, want)
		}
	}
}

// An unchanged poll costs about a byte a group, and an unchanged partition
// a bit.
func TestUnchangedPollsCostLittle(t *testing.T) {
	s := fixture.ManyGroups(1000)
	parts := 0
	for i := range s.Groups {
		parts += len(s.Groups[i].Partitions)
	}
	var polls []Poll
	for i := range 11 {
		c := *s
		c.Time = s.Time.Add(time.Duration(i) * 5 * time.Second)
		polls = append(polls, Poll{Time: c.Time, Snapshot: &c})
	}
	one := len(record(t, Header{}, polls[:1]))
	all := len(record(t, Header{}, polls))
	per := float64(all-one) / 10
	t.Logf("%d groups, %d partitions: first poll %d bytes, each unchanged poll %.0f bytes (%.3f a partition)", len(s.Groups), parts, one, per, per/float64(parts))
	if per >= float64(parts) {
		t.Fatalf("an unchanged poll costs %.0f bytes for %d partitions: a byte or more a partition", per, parts)
	}
}

func TestTornTailIsIgnored(t *testing.T) {
	b := record(t, Header{}, evolvingPolls(5))
	whole := len(b)
	four := len(record(t, Header{}, evolvingPolls(4)))
	for cut := four; cut < whole; cut++ {
		r, got := readAll(t, b[:cut])
		if len(got) != 4 {
			t.Fatalf("cut at %d of %d: read %d polls, want 4", cut, whole, len(got))
		}
		if cut > four && r.Torn() == nil {
			t.Fatalf("cut at %d: Torn is nil", cut)
		}
		if cut == four && r.Torn() != nil {
			t.Fatalf("cut at a frame's end: Torn is %v", r.Torn())
		}
		if r.Offset() != int64(four) {
			t.Fatalf("cut at %d: Offset %d, want %d", cut, r.Offset(), four)
		}
	}
	// A flipped byte in the last frame fails its checksum.
	bad := append([]byte(nil), b...)
	bad[whole-3] ^= 0x40
	r, got := readAll(t, bad)
	if len(got) != 4 || r.Torn() == nil || !strings.Contains(r.Torn().Error(), "checksum") {
		t.Fatalf("a damaged last frame: %d polls, torn %v", len(got), r.Torn())
	}
}

func TestOtherVersionsAreRefused(t *testing.T) {
	b := record(t, Header{}, evolvingPolls(1))
	for _, v := range []int{0, 2, 300} {
		c := append([]byte(nil), b...)
		c[len(magic)], c[len(magic)+1] = byte(v>>8), byte(v)
		_, err := NewReader(bytes.NewReader(c))
		var ve *VersionError
		if !errors.As(err, &ve) || ve.Got != v {
			t.Fatalf("version %d: %v", v, err)
		}
		want := "it reads version 1"
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "version "+strconv.Itoa(v)) {
			t.Fatalf("version %d: %q lacks %q", v, err, want)
		}
	}
	if _, err := NewReader(strings.NewReader("{\"groups\": []}")); err == nil || err.Error() != "not a kgroups recording (it does not start as one)" {
		t.Fatalf("a JSON file: %v", err)
	}
	if _, err := NewReader(strings.NewReader(magic[:5])); err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("a cut magic: %v", err)
	}
}
