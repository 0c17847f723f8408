package rebalance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtureLibraries is the implementation each fixture directory's members
// run; a new directory must be named here (or in fixtureMemberLibrary) to
// be identified.
var fixtureLibraries = map[string]Impl{
	"franzgo":                ImplJava,
	"java":                   ImplJava,
	"librdkafka":             ImplLibrdkafka,
	"confluent-kafka-python": ImplLibrdkafka,
	"kafkajs":                ImplKafkaJS,
	"sarama":                 ImplSarama,
	"kafka-go":               ImplKafkaGo,
	"kafka-python":           ImplKafkaPython,
}

// fixtureMemberLibrary is, for the mixed fixtures (captured with each
// library's default client id, see testdata/mixed/README.md), the library
// a member ran.
func fixtureMemberLibrary(clientID string) Impl {
	switch {
	case strings.HasPrefix(clientID, "kafka-python-"):
		return ImplKafkaPython
	case clientID == "rdkafka":
		return ImplLibrdkafka
	}
	return ImplUnknown
}

// TestIdentifyRecordedMembers identifies every member of every recorded
// group (before and after each change, default and chosen client ids,
// static members) and requires the library that really ran it; the group
// is that library's, and the mixed group is mixed with its leader
// unknown. No member is claimed by the metadata of two implementations.
func TestIdentifyRecordedMembers(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	members, doubted := 0, 0
	for _, p := range paths {
		dir := filepath.Base(filepath.Dir(p))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := new(recorded)
		if err := json.Unmarshal(b, f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if f.Type == "consumer" {
			continue // a KIP-848 group: the broker assigns, no leader runs an assignor
		}
		want, single := fixtureLibraries[dir]
		if !single && dir != "mixed" {
			t.Fatalf("%s: fixture directory %s names no library (fixtureLibraries)", p, dir)
		}
		for _, ms := range [][]rdkMember{f.Before, f.After, f.Members} {
			if len(ms) == 0 {
				continue
			}
			g := recordedGroup(t, p, f.Group, f.Protocol, ms)
			for i := range g.Members {
				m := &g.Members[i]
				members++
				ev := EvidenceOf(g.Name, g.Assignor, m)
				var claims []Impl
				for _, r := range recognisers {
					if r.recognise(ev) == ByMetadata {
						claims = append(claims, r.impl)
					}
				}
				if len(claims) > 1 {
					t.Errorf("%s: member %s (client id %q) is claimed by the metadata of %v", p, m.MemberID, m.ClientID, claims)
				}
				lib := want
				if !single {
					lib = fixtureMemberLibrary(m.ClientID)
				}
				r := identifyMember(ev)
				impl := r.impl
				if impl != lib && r.doubt != "" && slices.Contains(r.alternatives, lib) {
					// The library's layout is another's too, and the
					// client id, the other's default, decided: the
					// identification says it is in doubt and names the
					// library that ran it as the alternative.
					doubted++
					continue
				}
				if impl != lib {
					t.Errorf("%s: member %s (client id %q, group %s) identified as %s, ran %s", p, m.MemberID, m.ClientID, g.Name, impl, lib)
				}
			}
			id := Identify(g)
			inDoubt := len(id.Doubts) > 0 && slices.Contains(id.Alternatives, want)
			// Members given another library's default client id: their
			// metadata may identify them against it (a conflict, named).
			othersID := f.ClientIDs == "consumer-<group>-N" || f.ClientIDs == "sarama"
			switch {
			case single && (id.Impl != want && !inDoubt || id.Partial || len(id.Conflicts) > 0 && !othersID):
				t.Errorf("%s: group identified %s %q, want %s", p, id.Impl, id.Label(), want)
			case !single && (id.Impl != ImplMixed || id.Leader() != "(mixed clients: leader unknown)"):
				t.Errorf("%s: group identified %s %q, want mixed, leader unknown", p, id.Impl, id.Label())
			}
		}
	}
	if members == 0 {
		t.Fatal("no recorded members")
	}
	t.Logf("%d recorded members of %d fixtures identified (%d in doubt, naming the library that ran them as the alternative)", members, len(paths), doubted)
}
