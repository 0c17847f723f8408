package rebalance

import (
	"slices"
	"strings"
)

// The recognisers of the implementations modelled from the start: what
// each one's members send, as recorded in testdata (franz-go, librdkafka,
// kafkajs) and as the Java client's protocol code writes it.
func init() {
	registerRecogniser(ImplJava, javaDefaultID, recogniseJava)
	registerRecogniser(ImplLibrdkafka, librdkafkaDefaultID, recogniseLibrdkafka)
	registerRecogniser(ImplKafkaJS, kafkajsDefaultID, recogniseKafkaJS)
}

// javaDefaultID: franz-go's "kgo", the Java client's
// "consumer-<group>-<n>" for the member's own group, or
// "consumer-<group>-<group.instance.id>" for a static member (and the
// "consumer-<n>" of clients before 2.2). "consumer-billing-1" in a group
// not named billing is a client id someone chose, not the Java client's
// default.
func javaDefaultID(ev Evidence) bool {
	id := ev.ClientID
	if id == "kgo" {
		return true
	}
	rest, ok := strings.CutPrefix(id, "consumer-")
	if !ok {
		return false
	}
	if ev.Group != "" {
		if n, ok := strings.CutPrefix(rest, ev.Group+"-"); ok && (digits(n) || ev.InstanceID != "" && n == ev.InstanceID) {
			return true
		}
	}
	return digits(rest)
}

// digits reports whether s is a non-empty run of ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// librdkafkaDefaultID: librdkafka's "rdkafka" (confluent-kafka-go,
// -python, -dotnet keep it), and kcat's.
func librdkafkaDefaultID(ev Evidence) bool {
	id := strings.ToLower(ev.ClientID)
	return id == "rdkafka" || strings.HasPrefix(id, "rdkafka-") || strings.HasPrefix(id, "kcat") || strings.HasPrefix(id, "kafkacat")
}

func kafkajsDefaultID(ev Evidence) bool {
	id := strings.ToLower(ev.ClientID)
	return id == "kafkajs" || strings.HasPrefix(id, "kafkajs-")
}

// recogniseJava: the Java client (2.4 and later) and franz-go write null
// user data for range and roundrobin, sticky user data for the eager
// sticky, and owned partitions (version 1 and later) for
// cooperative-sticky; franz-go and the Java client since 3.5 write
// version 3 (generation, rack). Version 3 with null user data under range
// or roundrobin is their layout, and version 3 under sticky or
// cooperative-sticky (no other client writes version 3: recorded from the
// Java client 4.2.1 in testdata/java, whose cooperative-sticky user data is
// the generation alone, and from franz-go, whose is its sticky user data).
func recogniseJava(ev Evidence) Recognition {
	l := ev.Metadata
	if l.OK && l.Truncated {
		return RuledOut // kafka-go's layout: the Java client never cuts version 1 short
	}
	if l.OK && l.Version >= 3 && !slices.Contains(javaProtocols, ev.Protocol) {
		return ByMetadata // a custom assignor on the Java client 3.5+ or franz-go
	}
	if !l.OK || !slices.Contains(javaProtocols, ev.Protocol) {
		return fromClientID(ev, javaDefaultID)
	}
	switch ev.Protocol {
	case AssignorRange, AssignorRoundRobin:
		if !l.UserDataNull {
			return RuledOut
		}
		if l.Version >= 3 {
			return ByMetadata
		}
	case AssignorCooperativeSticky:
		if l.Version < 1 {
			return RuledOut
		}
		if l.Version >= 3 {
			return ByMetadata
		}
	case AssignorSticky:
		if l.Version >= 3 {
			return ByMetadata
		}
	}
	return fromClientID(ev, javaDefaultID)
}

// recogniseLibrdkafka: librdkafka (1.x and 2.x, as recorded with 2.0.2)
// writes version 1 or later with user data that is never null: empty for
// range and roundrobin, its sticky user data for cooperative-sticky.
func recogniseLibrdkafka(ev Evidence) Recognition {
	l := ev.Metadata
	if l.OK && l.Truncated {
		return RuledOut
	}
	if !l.OK {
		return fromClientID(ev, librdkafkaDefaultID)
	}
	switch ev.Protocol {
	case AssignorRange, AssignorRoundRobin:
		if l.Version >= 1 && !l.UserDataNull && len(l.UserData) == 0 {
			return ByMetadata
		}
	case AssignorCooperativeSticky:
		if l.Version < 1 {
			return RuledOut
		}
		if l.Version == 1 && stickyUserData(l.UserData) {
			return ByMetadata
		}
	}
	return fromClientID(ev, librdkafkaDefaultID)
}

// recogniseKafkaJS: kafkajs (2.x) writes version 0 with empty, not null,
// user data; its own assignor is RoundRobinAssigner, a name no other
// client uses.
func recogniseKafkaJS(ev Evidence) Recognition {
	l := ev.Metadata
	fits := !l.OK || (l.Version == 0 && len(l.UserData) == 0)
	switch {
	case ev.Protocol == ProtocolKafkaJSRoundRobin && fits:
		return ByMetadata
	case ev.Protocol == ProtocolKafkaJSRoundRobin:
		return RuledOut
	case l.OK && l.Version != 0:
		return RuledOut
	}
	return fromClientID(ev, kafkajsDefaultID)
}
