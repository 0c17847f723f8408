package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// The describe document is written group by group through a buffered
// writer, so that a whole cluster's document is never held in memory: each
// group is appended to one reused buffer, already indented, and written
// out. Classic and consumer-protocol groups, the bulk of every cluster, are
// appended field by field below; share and streams groups, and the leader
// object, go through encoding/json (jsonGroup, EncodeJSON's rules) and are
// indented here. Either way the bytes are exactly those EncodeJSON writes
// for the whole jsonDocument (json_stream_test.go proves it).

// streamJSON writes the document of groups to w.
func streamJSON(w io.Writer, groups []*kafka.Group, opts JSONOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := jsonStream{}
	if len(groups) == 0 {
		s.b = append(s.b, "{\n  \"groups\": []\n}\n"...)
	} else {
		s.b = append(s.b, "{\n  \"groups\": ["...)
	}
	for i, g := range groups {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		s.newline(2)
		if err := s.group(g, opts); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
		if len(s.b) >= 32<<10 {
			if _, err := bw.Write(s.b); err != nil {
				return fmt.Errorf("write json: %w", err)
			}
			s.b = s.b[:0]
		}
	}
	if len(groups) > 0 {
		s.b = append(s.b, "\n  ]\n}\n"...)
	}
	if _, err := bw.Write(s.b); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// jsonStream appends an indented document to b.
type jsonStream struct {
	b []byte
	// tmp holds what encoding/json writes before it is indented.
	tmp bytes.Buffer
}

func (s *jsonStream) newline(depth int) {
	s.b = append(s.b, '\n')
	for range depth {
		s.b = append(s.b, ' ', ' ')
	}
}

// key starts a member of an object at depth: a comma unless it is the
// first, a new line, the quoted key and ": ".
func (s *jsonStream) key(depth int, k string, first bool) {
	if !first {
		s.b = append(s.b, ',')
	}
	s.newline(depth)
	s.b = append(s.b, '"')
	s.b = append(s.b, k...)
	s.b = append(s.b, '"', ':', ' ')
}

func (s *jsonStream) str(v string) { s.b = appendJSONString(s.b, v) }

func (s *jsonStream) int(v int64) { s.b = strconv.AppendInt(s.b, v, 10) }

// offset writes kafka.NoOffset (any negative offset) as null.
func (s *jsonStream) offset(v int64) {
	if v < 0 {
		s.b = append(s.b, "null"...)
		return
	}
	s.int(v)
}

// optional writes "" as null.
func (s *jsonStream) optional(v string) {
	if v == "" {
		s.b = append(s.b, "null"...)
		return
	}
	s.str(v)
}

func (s *jsonStream) err(err error) {
	if err == nil {
		s.b = append(s.b, "null"...)
		return
	}
	s.str(err.Error())
}

// value writes v through encoding/json, indented at depth, as EncodeJSON
// would write it there.
func (s *jsonStream) value(depth int, v any) error {
	s.tmp.Reset()
	enc := json.NewEncoder(&s.tmp)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	start := len(s.b)
	s.b = appendIndented(s.b, bytes.TrimSuffix(s.tmp.Bytes(), []byte{'\n'}), depth)
	// terminalSafeJSON returns its argument when nothing needs escaping,
	// and a new slice otherwise.
	if chunk, safe := s.b[start:], terminalSafeJSON(s.b[start:]); len(chunk) > 0 && &safe[0] != &chunk[0] {
		s.b = append(s.b[:start], safe...)
	}
	return nil
}

// group writes one group as an object whose brace stands at depth 2.
func (s *jsonStream) group(g *kafka.Group, opts JSONOptions) error {
	if g.IsShare() || g.Type == kafka.TypeStreams {
		return s.value(2, toJSONGroup(g, opts))
	}
	const d = 3
	s.b = append(s.b, '{')
	s.key(d, "group", true)
	s.str(g.Name)
	if b64 := groupBase64(g.Name); b64 != "" {
		s.key(d, "groupBase64", false)
		s.str(b64)
	}
	s.key(d, "type", false)
	s.str(string(g.Type))
	s.key(d, "protocolType", false)
	s.str(g.ProtocolType)
	s.key(d, "state", false)
	s.str(g.State)
	s.key(d, "assignor", false)
	s.str(g.Assignor)
	if rebalance.Leads(g) {
		id := rebalance.Identify(g)
		s.key(d, "leader", false)
		if err := s.value(d, jsonLeader{Impl: string(id.Impl), Protocol: id.Protocol, Partial: id.Partial, Label: id.Label()}); err != nil {
			return err
		}
	}
	consumer := g.Type == kafka.TypeConsumer
	s.key(d, "groupEpoch", false)
	s.epoch(consumer, g.GroupEpoch)
	s.key(d, "assignmentEpoch", false)
	s.epoch(consumer, g.AssignmentEpoch)
	s.key(d, "coordinator", false)
	if c := g.Coordinator; c.Host != "" && c.ID >= 0 {
		s.b = append(s.b, '{')
		s.key(d+1, "id", true)
		s.int(int64(c.ID))
		s.key(d+1, "host", false)
		s.str(c.Host)
		s.key(d+1, "port", false)
		s.int(int64(c.Port))
		s.newline(d)
		s.b = append(s.b, '}')
	} else {
		s.b = append(s.b, "null"...)
	}
	s.key(d, "offsetsPartition", false)
	if g.OffsetsPartition >= 0 {
		s.int(int64(g.OffsetsPartition))
	} else {
		s.b = append(s.b, "null"...)
	}
	s.key(d, "members", false)
	s.b = append(s.b, '[')
	for i := range g.Members {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		s.newline(d + 1)
		s.member(&g.Members[i], consumer, d+1)
	}
	s.closeArray(d, len(g.Members))
	s.key(d, "partitions", false)
	s.b = append(s.b, '[')
	for i := range g.Partitions {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		s.newline(d + 1)
		if err := s.partition(g, &g.Partitions[i], opts, d+1); err != nil {
			return err
		}
	}
	s.closeArray(d, len(g.Partitions))
	s.key(d, "totalLag", false)
	s.offset(columns.GroupLag(g))
	s.key(d, "error", false)
	s.err(g.Err)
	s.newline(d - 1)
	s.b = append(s.b, '}')
	return nil
}

func (s *jsonStream) epoch(known bool, v int32) {
	if !known {
		s.b = append(s.b, "null"...)
		return
	}
	s.int(int64(v))
}

// closeArray ends an array of n elements whose key stands at depth.
func (s *jsonStream) closeArray(depth, n int) {
	if n > 0 {
		s.newline(depth)
	}
	s.b = append(s.b, ']')
}

func (s *jsonStream) member(m *kafka.Member, consumer bool, d int) {
	s.b = append(s.b, '{')
	s.key(d+1, "memberId", true)
	s.str(m.MemberID)
	s.key(d+1, "instanceId", false)
	s.optional(m.InstanceID)
	s.key(d+1, "clientId", false)
	s.str(m.ClientID)
	s.key(d+1, "host", false)
	s.str(m.Host)
	s.key(d+1, "rack", false)
	s.optional(m.Rack)
	s.key(d+1, "subscribedTopics", false)
	s.b = append(s.b, '[')
	for i, t := range m.Subscribed {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		s.newline(d + 2)
		s.str(t)
	}
	s.closeArray(d+1, len(m.Subscribed))
	s.key(d+1, "subscribedRegex", false)
	s.optional(m.SubscribedRegex)
	s.key(d+1, "assignment", false)
	s.assignment(m.Assignment, d+1)
	s.key(d+1, "memberEpoch", false)
	s.epoch(consumer, m.MemberEpoch)
	s.key(d+1, "targetAssignment", false)
	if consumer {
		s.assignment(m.Target, d+1)
	} else {
		s.b = append(s.b, "null"...)
	}
	s.newline(d)
	s.b = append(s.b, '}')
}

func (s *jsonStream) assignment(tps []kafka.TopicPartitions, d int) {
	s.b = append(s.b, '[')
	for i, tp := range tps {
		if i > 0 {
			s.b = append(s.b, ',')
		}
		s.newline(d + 1)
		s.b = append(s.b, '{')
		s.key(d+2, "topic", true)
		s.str(tp.Topic)
		s.key(d+2, "partitions", false)
		s.b = append(s.b, '[')
		for j, p := range tp.Partitions {
			if j > 0 {
				s.b = append(s.b, ',')
			}
			s.newline(d + 3)
			s.int(int64(p))
		}
		s.closeArray(d+2, len(tp.Partitions))
		s.newline(d + 1)
		s.b = append(s.b, '}')
	}
	s.closeArray(d, len(tps))
}

func (s *jsonStream) partition(g *kafka.Group, p *kafka.PartitionOffsets, opts JSONOptions, d int) error {
	s.b = append(s.b, '{')
	s.key(d+1, "topic", true)
	s.str(p.Topic)
	s.key(d+1, "partition", false)
	s.int(int64(p.Partition))
	s.key(d+1, "committedOffset", false)
	s.offset(p.Committed)
	s.key(d+1, "leaderEpoch", false)
	if p.HasCommit() && p.LeaderEpoch >= 0 {
		s.int(int64(p.LeaderEpoch))
	} else {
		s.b = append(s.b, "null"...)
	}
	s.key(d+1, "metadata", false)
	s.str(p.Metadata)
	s.key(d+1, "logStartOffset", false)
	s.offset(p.LogStart)
	s.key(d+1, "logEndOffset", false)
	s.offset(p.LogEnd)
	s.key(d+1, "lag", false)
	s.offset(p.Lag)
	s.key(d+1, "memberId", false)
	s.optional(p.MemberID)
	s.key(d+1, "clientId", false)
	s.optional(p.ClientID())
	s.key(d+1, "host", false)
	s.optional(p.Host())
	s.key(d+1, "error", false)
	s.err(p.Err)
	if opts.TimeLag != nil {
		tl := opts.TimeLag(g, p)
		v, err := optionalSeconds{set: true, known: tl.Known(), v: round3(tl.Seconds)}.MarshalJSON()
		if err != nil {
			return err
		}
		s.key(d+1, "timeLagSeconds", false)
		s.b = append(s.b, v...)
	}
	if p.StableTrails {
		s.key(d+1, "lastStableOffset", false)
		s.int(p.LastStable)
		if l := p.StableLag(); l >= 0 {
			s.key(d+1, "lagToStable", false)
			s.int(l)
		}
	}
	s.newline(d)
	s.b = append(s.b, '}')
	return nil
}

// appendJSONString appends v as a JSON string the way EncodeJSON writes
// it: encoding/json's escapes without HTML escaping (", \, \b, \f, \n,
// \r, \t, other C0 controls as \u00XX, invalid UTF-8 as \ufffd, U+2028 and
// U+2029 escaped), then terminalSafeJSON's (DEL and every character
// format.Safe refuses as \u escapes).
func appendJSONString(b []byte, v string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(v); {
		c := v[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, v[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // other C0 controls and DEL
				b = appendEscape(b, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029' || !format.SafeAt(v, i):
			b = appendEscape(b, r)
		default:
			b = append(b, v[i:i+size]...)
		}
		i += size
		start = i
	}
	b = append(b, v[start:]...)
	return append(b, '"')
}

// appendIndented appends compact, the output of encoding/json, indented
// as json.Indent with two spaces indents it, its first line continuing the
// current one at depth.
func appendIndented(b, compact []byte, depth int) []byte {
	inString := false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			b = append(b, c)
			switch c {
			case '\\':
				i++
				b = append(b, compact[i])
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			b = append(b, c)
		case '{', '[':
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				b = append(b, c, compact[i+1])
				i++
				continue
			}
			depth++
			b = append(b, c)
			b = appendNewline(b, depth)
		case '}', ']':
			depth--
			b = appendNewline(b, depth)
			b = append(b, c)
		case ',':
			b = append(b, c)
			b = appendNewline(b, depth)
		case ':':
			b = append(b, ':', ' ')
		default:
			b = append(b, c)
		}
	}
	return b
}

func appendNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}
