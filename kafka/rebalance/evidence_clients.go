package rebalance

import "slices"

// The recognisers of sarama, kafka-go and kafka-python, read from their
// entries in ClientEvidence (librdkafka's is evidence_core.go's, whose
// rules cover the older librdkafka releases the table does not record).
func init() {
	for _, e := range ClientEvidence {
		if e.Impl == ImplLibrdkafka {
			continue
		}
		registerRecogniser(e.Impl, e.defaultID, e.recognise)
		if e.Impl == ImplSarama {
			// The Java client from 2.4 to 3.3 sends what sarama sends:
			// version 1, null user data (sticky's for sticky), and no
			// owned partitions after an eager revoke.
			recognisers[len(recognisers)-1].sharedWith = "the Java client 2.4 to 3.3"
			recognisers[len(recognisers)-1].sharedImpl = ImplJava
		}
	}
}

func (e ImplEvidence) defaultID(ev Evidence) bool { return e.DefaultClientID(ev.ClientID) }

// truncates reports whether the implementation writes kafka-go's truncated
// version 1 metadata: it always does or never does.
func (e ImplEvidence) truncates() bool {
	for _, me := range e.Metadata {
		if me.Truncated {
			return true
		}
	}
	return false
}

// recognise grades a member's evidence against the implementation's
// recorded layouts: a member whose metadata has exactly the layout the
// implementation sends for the group's protocol is recognised by its
// metadata; truncated metadata where the implementation never truncates
// rules it out; anything else
// (another version, which other releases may write, or a protocol it was
// not recorded with) leaves the client id to say; the recorded version
// laid out otherwise rules it out.
func (e ImplEvidence) recognise(ev Evidence) Recognition {
	l := ev.Metadata
	if !l.OK {
		return fromClientID(ev, e.defaultID)
	}
	switch {
	case l.Truncated && !e.truncates():
		return RuledOut
	case !l.Truncated && e.truncates():
		// The poll's DescribeGroups decoder re-encodes kafka-go's
		// truncated metadata in full (owned partitions empty), so a
		// snapshot's kafka-go member looks like sarama's: only its
		// client id can say.
		return fromClientID(ev, e.defaultID)
	}
	me, ok := e.Metadata[ev.Protocol]
	switch {
	case !ok || !slices.Contains(e.Protocols, ev.Protocol):
	case me.fits(l):
		return ByMetadata
	case l.Version == me.Version:
		// The version it writes, laid out otherwise (user data null
		// where it writes it empty, owned partitions it never lists).
		return RuledOut
	}
	return fromClientID(ev, e.defaultID)
}

// fits reports whether a member's metadata has this layout.
func (me MetadataEvidence) fits(l Layout) bool {
	if l.Version != me.Version || l.Truncated != me.Truncated {
		return false
	}
	if !me.OwnedPartitions && l.Owned > 0 {
		return false
	}
	switch {
	case len(l.UserData) == 0:
		// No user data: null or empty as the implementation writes it
		// (a sticky member's first join has none).
		return l.UserDataNull == me.NullUserData
	case me.UserData == UserDataStickyV1:
		return stickyUserData(l.UserData)
	}
	return false
}
