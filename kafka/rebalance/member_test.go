package rebalance

import (
	"errors"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

func TestResolveMember(t *testing.T) {
	g := &kafka.Group{Name: "g", Members: []kafka.Member{
		{MemberID: "a-1", ClientID: "a", InstanceID: "ia"},
		{MemberID: "b-1", ClientID: "dup"},
		{MemberID: "b-2", ClientID: "dup"},
		{MemberID: "c-1", ClientID: "a-1"}, // a client id equal to another member's id
		{MemberID: "d-1", ClientID: "d", InstanceID: "dup-i"},
		{MemberID: "e-1", ClientID: "dup-i"},
	}}
	for _, tt := range []struct {
		name, want string
		ambiguous  []string
	}{
		{name: "a-1", want: "a-1"}, // member ids win
		{name: "a", want: "a-1"},
		{name: "ia", want: "a-1"},
		{name: "c-1", want: "c-1"},
		{name: "d", want: "d-1"},
		{name: "dup", ambiguous: []string{"b-1", "b-2"}},
		{name: "dup-i", ambiguous: []string{"d-1", "e-1"}}, // an instance id and a client id
	} {
		got, err := ResolveMember(g, tt.name)
		var amb *AmbiguousMemberError
		switch {
		case tt.ambiguous != nil:
			if !errors.As(err, &amb) || len(amb.Matches) != len(tt.ambiguous) {
				t.Fatalf("%s: %q, %v; want ambiguous between %v", tt.name, got, err, tt.ambiguous)
			}
			for i, m := range amb.Matches {
				if m.MemberID != tt.ambiguous[i] {
					t.Errorf("%s: match %d is %s, want %s", tt.name, i, m.MemberID, tt.ambiguous[i])
				}
			}
		case err != nil || got != tt.want:
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	_, err := ResolveMember(g, "dup")
	if want := `"dup" names 2 members of group "g" (by client id or instance id): b-1 (client dup), b-2 (client dup); name one by its member id`; err.Error() != want {
		t.Errorf("ambiguous: %q\nwant %q", err, want)
	}
	_, err = ResolveMember(g, "dup-i")
	if want := `"dup-i" names 2 members of group "g" (by client id or instance id): d-1 (client d, instance dup-i), e-1 (client dup-i); name one by its member id`; err.Error() != want {
		t.Errorf("ambiguous: %q\nwant %q", err, want)
	}
	var nf *MemberNotFoundError
	if _, err := ResolveMember(g, "zz"); !errors.As(err, &nf) || err.Error() != `member "zz" is not in group "g"; its members are: a-1, b-1, b-2, c-1, d-1, e-1` {
		t.Errorf("not found: %v", err)
	}
}
