package viewtest

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// Hostile are strings a consumer can choose for its group, member, client
// and instance ids and its host name, and that brokers pass on verbatim,
// errors included: terminal escapes (a title, the clipboard, a clear
// screen), a 10,000-character name, wide CJK and emoji, and invisible and
// bidirectional characters, default-ignorable look-alikes (U+034F, the
// Hangul filler, a lone joiner) and a newline.
var Hostile = []string{
	"evil\x1b]0;PWNED\x07\x1b[2J",
	"\x1b]52;c;Y2xpcGJvYXJk\x07",
	strings.Repeat("g", 10_000),
	"消费者组",
	"👩\u200d💻",
	"pay\u200bments",
	"user\u202etxt",
	"ev\u034fil",
	"han\u3164gul\u115f\uffa0",
	"lone\u200dzwj",
	"cid-nl-line1\nline2",
}

// ErrHostile is an error whose text is every hostile string, over lines.
var ErrHostile = errors.New("broker says: " + strings.Join(Hostile, " | ") + "\nsecond line\r\tend")

// HostileSnapshot is a cluster whose groups are named with the hostile
// strings, one each, and whose members, clients, instances, hosts, topics,
// assignors, protocol types, states and errors are hostile too. Poll 0 has
// one member per group, later polls two, with the state and the
// assignment changed, so the rebalance timeline has events to show. The
// classic groups' members carry range join metadata, so simulations run.
func HostileSnapshot(t time.Time, poll int) *kafka.Snapshot {
	s := &kafka.Snapshot{Time: t, Duration: 42 * time.Millisecond, Brokers: []kafka.Broker{
		{ID: 1, Host: Hostile[0], Port: 9092}, {ID: 2, Host: Hostile[2], Port: 9092},
	}, OffsetsTopicPartitions: 50}
	for i, h := range Hostile {
		topic := "t-" + h
		m1 := Member(h+"-1", h, h, "/"+h, topic, 0, 1)
		m2 := Member(h+"-2", h+"-i2", h, "/"+h, topic, 2)
		g := kafka.Group{
			Name: h, Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable,
			Assignor: "range", Coordinator: s.Brokers[i%2], OffsetsPartition: int32(i),
		}
		switch i {
		case 1:
			g.Assignor = h
			g.State = h // a state kgroups does not know, by name
		case 2:
			g.Type, g.Assignor = kafka.TypeConsumer, h
			m1.Target, m2.Target = m2.Assignment, m1.Assignment
		case 3:
			g.ProtocolType = h
		case 4:
			g.Err = ErrHostile
		}
		for _, m := range []*kafka.Member{&m1, &m2} {
			if g.Type == kafka.TypeClassic {
				m.JoinMetadata = kgo.RangeBalancer().JoinGroupMetadata([]string{topic}, nil, 0)
			}
		}
		g.Members = []kafka.Member{m1}
		owner2 := &m1
		if poll > 0 {
			g.Members = append(g.Members, m2)
			owner2 = &m2
			if g.State == kafka.StateStable {
				g.State = kafka.StatePreparingRebalance
			}
		}
		bump := int64(25 * poll)
		g.Partitions = []kafka.PartitionOffsets{
			Part(topic, 0, 100, 0, 150+bump, &m1),
			Part(topic, 1, 90, 0, 150+bump, &m1),
			Part(topic, 2, 80+bump, 0, 150+bump, owner2),
		}
		s.Groups = append(s.Groups, g)
	}
	slices.SortFunc(s.Groups, func(a, b kafka.Group) int { return strings.Compare(a.Name, b.Name) })
	return s
}

// sgr matches the UI's own styling: Select Graphic Rendition sequences.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// RequireSafe fails unless view is exactly height lines, none wider than
// width, and, the UI's own styling (SGR) taken out, every line is text a
// terminal only draws: no C0 or C1 control, no escape, no bidirectional or
// invisible character (format.Safe).
func RequireSafe(t testing.TB, where, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != height {
		t.Fatalf("%s: %d lines on a %d-line terminal", where, len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("%s: line %d is %d cells on a %d-cell terminal: %q", where, i, w, width, ansi.Strip(l))
		}
		plain := sgr.ReplaceAllString(l, "")
		if !format.Safe(plain) {
			t.Fatalf("%s: line %d holds what a terminal acts on: %q", where, i, plain)
		}
		for j := 0; j < len(plain); j++ {
			if c := plain[j]; c < 0x20 || c == 0x7f {
				t.Fatalf("%s: line %d holds control byte %#x: %q", where, i, c, plain)
			}
		}
	}
}
