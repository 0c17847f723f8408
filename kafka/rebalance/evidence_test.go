package rebalance

import (
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestClientEvidence checks every member of every recorded fixture
// against its library's entry in ClientEvidence: the metadata version,
// user data and owned partitions it sent, the user data in the
// assignment it was given, and whether its client id is its library's
// default exactly when the fixture kept the defaults.
func TestClientEvidence(t *testing.T) {
	for dir, impl := range map[string]Impl{
		"sarama":                 ImplSarama,
		"kafka-go":               ImplKafkaGo,
		"kafka-python":           ImplKafkaPython,
		"confluent-kafka-python": ImplLibrdkafka,
	} {
		i := slices.IndexFunc(ClientEvidence, func(e ImplEvidence) bool { return e.Impl == impl })
		if i < 0 {
			t.Fatalf("no evidence for %s", impl)
		}
		ev := ClientEvidence[i]
		ownedSeen := map[string]bool{}
		for name, f := range loadClientFixtures(t, dir) {
			if !slices.Contains(ev.Protocols, f.Protocol) {
				t.Errorf("%s/%s: protocol %s not among %s's %v", dir, name, f.Protocol, impl, ev.Protocols)
			}
			if f.Static && !ev.Static {
				t.Errorf("%s/%s: static members, but %s has no static membership", dir, name, impl)
			}
			want := ev.Metadata[f.Protocol]
			for _, m := range append(slices.Clone(f.Before), f.After...) {
				if got := ev.DefaultClientID(m.ClientID); got != (f.ClientIDs == "default") {
					t.Errorf("%s/%s: member %s client id %q: default %v, fixture kept defaults: %v", dir, name, m.MemberID, m.ClientID, got, f.ClientIDs == "default")
				}
				if f.Static != (m.InstanceID != "") {
					t.Errorf("%s/%s: member %s instance id %q", dir, name, m.MemberID, m.InstanceID)
				}
				meta, truncated, err := ReadMemberMetadata(m.Metadata)
				if err != nil {
					t.Fatalf("%s/%s: member %s metadata: %v", dir, name, m.MemberID, err)
				}
				if truncated != want.Truncated {
					t.Errorf("%s/%s: member %s metadata truncated: %v, want %v", dir, name, m.MemberID, truncated, want.Truncated)
				}
				if meta.Version != want.Version {
					t.Errorf("%s/%s: member %s sent metadata v%d, want v%d", dir, name, m.MemberID, meta.Version, want.Version)
				}
				checkUserData(t, dir+"/"+name+": member "+m.MemberID+" subscription", meta.UserData, want.UserData)
				if n, ok := UserDataLength(m.Metadata); !ok {
					t.Errorf("%s/%s: member %s: cannot read the user data length", dir, name, m.MemberID)
				} else if n <= 0 && (n < 0) != want.NullUserData {
					t.Errorf("%s/%s: member %s wrote no user data with length %d, want null: %v", dir, name, m.MemberID, n, want.NullUserData)
				}
				if len(meta.OwnedPartitions) > 0 {
					ownedSeen[f.Protocol] = true
					if !want.OwnedPartitions {
						t.Errorf("%s/%s: member %s lists owned partitions %v", dir, name, m.MemberID, meta.OwnedPartitions)
					}
				}
				a := kmsg.NewConsumerMemberAssignment()
				if err := a.ReadFrom(m.Assignment); err != nil {
					t.Fatalf("%s/%s: member %s assignment: %v", dir, name, m.MemberID, err)
				}
				checkUserData(t, dir+"/"+name+": member "+m.MemberID+" assignment", a.UserData, want.AssignmentUserData)
				if a.Version != want.AssignmentVersion {
					t.Errorf("%s/%s: member %s assignment v%d, want v%d", dir, name, m.MemberID, a.Version, want.AssignmentVersion)
				}
			}
		}
		for protocol, want := range ev.Metadata {
			if want.OwnedPartitions && !ownedSeen[protocol] {
				t.Errorf("%s %s: no recorded member listed owned partitions", impl, protocol)
			}
		}
	}
}

// checkUserData requires b to be empty for UserDataNone and otherwise to
// decode as format when set: a member with no previous assignment (a
// joiner's first join) sends none.
func checkUserData(t *testing.T, what string, b []byte, format UserDataFormat) {
	t.Helper()
	switch format {
	case UserDataNone:
		if len(b) > 0 {
			t.Errorf("%s: user data %x, want none", what, b)
		}
	case UserDataStickyV1:
		if len(b) == 0 {
			return
		}
		ud := kmsg.NewStickyMemberMetadata()
		if err := ud.ReadFrom(b); err != nil || ud.Generation < 0 {
			t.Errorf("%s: user data %x is not sticky v1 (generation %d): %v", what, b, ud.Generation, err)
		}
	}
}

// TestReadMemberMetadataTruncated: kafka-go's v1 metadata, which stops
// after the user data, is refused by kmsg and read by ReadMemberMetadata;
// complete v1 metadata is read as it is.
func TestReadMemberMetadataTruncated(t *testing.T) {
	// v1, topics [t5 t7], null user data, and nothing after.
	kafkago := []byte{0, 1, 0, 0, 0, 2, 0, 2, 't', '5', 0, 2, 't', '7', 0xff, 0xff, 0xff, 0xff}
	if m := kmsg.NewConsumerMemberMetadata(); m.ReadFrom(kafkago) == nil {
		t.Fatal("kmsg reads the truncated metadata: ReadMemberMetadata's fallback is not needed")
	}
	meta, truncated, err := ReadMemberMetadata(kafkago)
	if err != nil || !truncated || meta.Version != 1 || !slices.Equal(meta.Topics, []string{"t5", "t7"}) || len(meta.UserData) != 0 {
		t.Fatalf("got %+v truncated %v err %v", meta, truncated, err)
	}
	if n, ok := UserDataLength(kafkago); !ok || n != -1 {
		t.Errorf("user data length %d %v, want -1", n, ok)
	}
	full := append(slices.Clone(kafkago), 0, 0, 0, 0) // no owned partitions
	if meta, truncated, err := ReadMemberMetadata(full); err != nil || truncated || meta.Version != 1 {
		t.Errorf("complete v1: %+v truncated %v err %v", meta, truncated, err)
	}
	if _, _, err := ReadMemberMetadata([]byte{0, 1, 0}); err == nil {
		t.Error("garbage read without error")
	}
	if _, ok := UserDataLength([]byte{0, 0, 0, 0, 0, 1, 0, 9, 'x'}); ok {
		t.Error("a topic name running past the end read as ok")
	}
}
