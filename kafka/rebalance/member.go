package rebalance

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// MemberNotFoundError says that a name is none of a group's member ids,
// client ids or instance ids.
type MemberNotFoundError struct {
	Group string
	Name  string
	// MemberIDs are the group's members, to choose from.
	MemberIDs []string
}

func (e *MemberNotFoundError) Error() string {
	list := "(none)"
	if len(e.MemberIDs) > 0 {
		list = joinIDs(e.MemberIDs)
	}
	return fmt.Sprintf("member %q is not in group %q; its members are: %s", e.Name, e.Group, list)
}

// joinIDs lists ids for a message, each on the message's one line.
func joinIDs(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = oneLine(id)
	}
	return strings.Join(out, ", ")
}

// oneLine is id as it is, or Go-quoted when it holds a line break or
// another control character: a consumer chooses its client id (and so
// its member id), and a raw line break would split a message into lines
// that pass for kgroups' own.
func oneLine(id string) string {
	for _, r := range id {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 {
			return strconv.Quote(id)
		}
	}
	return id
}

// AmbiguousMemberError says that a name is the client id or the instance
// id of several members, so it names none of them.
type AmbiguousMemberError struct {
	Group string
	Name  string
	// Matches are the members the name fits, in the group's order.
	Matches []kafka.Member
}

func (e *AmbiguousMemberError) Error() string {
	return fmt.Sprintf("%q names %d members of group %q (by client id or instance id): %s; name one by its member id",
		e.Name, len(e.Matches), e.Group, strings.Join(DescribeMembers(e.Matches), ", "))
}

// DescribeMembers names members for a message: "ID (client C, instance
// I)", the instance left out when there is none. The strings are the
// broker's: a caller that prints them sanitizes them.
func DescribeMembers(ms []kafka.Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		s := oneLine(m.MemberID) + " (client " + oneLine(m.ClientID)
		if m.InstanceID != "" {
			s += ", instance " + oneLine(m.InstanceID)
		}
		out[i] = s + ")"
	}
	return out
}

// ResolveMember finds the member that name means in g: the member whose
// member id it is; failing that, the one member whose client id or
// instance id it is. A name that fits several members by client id or
// instance id is an *AmbiguousMemberError; one that fits none is a
// *MemberNotFoundError. Member ids are unique in a group, so they always
// win: a client id that happens to equal another member's id does not make
// that id ambiguous.
func ResolveMember(g *kafka.Group, name string) (string, error) {
	if m, ok := g.Member(name); ok {
		return m.MemberID, nil
	}
	var matches []kafka.Member
	for _, m := range g.Members {
		if m.ClientID == name || m.InstanceID == name {
			matches = append(matches, m)
		}
	}
	switch len(matches) {
	case 0:
		return "", &MemberNotFoundError{Group: g.Name, Name: name, MemberIDs: memberIDs(g)}
	case 1:
		return matches[0].MemberID, nil
	}
	return "", &AmbiguousMemberError{Group: g.Name, Name: name, Matches: matches}
}
