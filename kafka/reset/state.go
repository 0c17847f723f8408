package reset

import (
	"fmt"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// LiveGroupError refuses a change to a group that has live members. Kafka
// only takes an admin's offset commit or delete on an Empty group, and a
// reset that "worked" on a live group would be overwritten by the members'
// next commit anyway; so kgroups refuses up front and says who is there.
type LiveGroupError struct {
	Group   string
	State   string
	Members []kafka.Member
	// Action is what was refused, phrased to precede "group X": "reset
	// the offsets of", "delete", ...
	Action string
	// Topics, when set, are the topics whose offsets cannot be deleted
	// because live members subscribe to them.
	Topics []string
	// Type is the group's type; share and streams groups get their own
	// advice (their members cannot be removed by kgroups rebalance).
	Type kafka.GroupType
	// Connection are the words that name the cluster on a kgroups command
	// line ("--context", NAME or "-b", HOSTS), put in the suggested
	// command so that it runs pasted as it is; nil for none.
	Connection []string
}

func (e *LiveGroupError) Error() string {
	var b strings.Builder
	if e.Type == kafka.TypeShare {
		fmt.Fprintf(&b, "cannot %s share group %q", e.Action, e.Group)
	} else {
		fmt.Fprintf(&b, "cannot %s group %q", e.Action, e.Group)
	}
	if len(e.Topics) > 0 {
		fmt.Fprintf(&b, " for %s %s, which its members subscribe to", kafka.Noun(len(e.Topics), "topic", "topics"), strings.Join(e.Topics, ", "))
	}
	fmt.Fprintf(&b, ": it is %s", e.State)
	if n := len(e.Members); n > 0 {
		fmt.Fprintf(&b, " with %d live %s:", n, kafka.Noun(n, "member", "members"))
		for _, m := range e.Members {
			b.WriteString("\n  " + DescribeMember(m))
		}
		b.WriteString("\n")
	} else {
		b.WriteString(", not Empty. ")
	}
	what := "Offsets can only be changed"
	if len(e.Topics) > 0 {
		what = "Offsets of a subscribed topic can only be deleted"
	}
	if e.Type == kafka.TypeShare {
		fmt.Fprintf(&b, "Nothing was changed. A share group's start offsets can only be changed while the group is Empty: stop its consumers, then try again")
		return b.String()
	}
	if e.Type == kafka.TypeStreams {
		fmt.Fprintf(&b, "Nothing was changed. The offsets of a streams group can only be changed while it is Empty: stop every instance of the application, then try again.")
		return b.String()
	}
	// The suggested command ends the message, with nothing around it, so
	// that it can be pasted as printed; the name is shell-quoted.
	words := kafka.Command(append(append([]string{"kgroups"}, e.Connection...), "rebalance"), e.Group, "--all")
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	fmt.Fprintf(&b, "Nothing was changed. %s while the group is Empty: stop its consumers, or remove them (then try again) with: %s", what, strings.Join(words, " "))
	return b.String()
}

// shellQuote makes s one word for a POSIX shell, as format.ShellQuote does
// for the presentation layer (which kafka cannot import): bare when it has
// only letters, digits and "/._-:+=@,", else in single quotes with each
// quote closed, escaped and reopened.
func shellQuote(s string) string {
	if s != "" && s[0] != '=' && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:+=@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// DescribeMember renders a member for refusals: its id, instance id, client
// id and host.
func DescribeMember(m kafka.Member) string {
	s := "member " + m.MemberID
	if m.InstanceID != "" {
		s += " (instance " + m.InstanceID + ")"
	}
	client, host := m.ClientID, m.Host
	if client == "" {
		client = "-"
	}
	if host == "" {
		host = "-"
	}
	return s + ", client " + client + ", host " + host
}

// GroupNotFoundError is a request for a group the cluster does not know, most
// often a typo. Resetting such a group would silently create it.
type GroupNotFoundError struct {
	Group string
	// Deleting says the request was a delete, for which --new-group
	// makes no sense.
	Deleting bool
	// Similar are the listed names closest to Group (kafka.SimilarNames),
	// offered instead of the advice to check the list; nil for none.
	Similar []string
}

func (e *GroupNotFoundError) Error() string {
	switch {
	case len(e.Similar) > 0 && e.Deleting:
		return kafka.GroupNotFound(e.Group, e.Similar)
	case len(e.Similar) > 0:
		return kafka.GroupNotFound(e.Group, e.Similar) + " To give a new group its first offsets, pass --new-group"
	case e.Deleting:
		return kafka.GroupNotFound(e.Group, nil) + ": check the name with 'kgroups list'"
	}
	return kafka.GroupNotFound(e.Group, nil) + ": check the name with 'kgroups list'; to give a new group its first offsets, pass --new-group"
}

// OffsetsChangedError refuses to apply a plan whose "before" no longer holds:
// something committed between planning and applying, and the receipt would
// record the wrong offsets.
type OffsetsChangedError struct {
	Group   string
	Changed []string
}

func (e *OffsetsChangedError) Error() string {
	return fmt.Sprintf("the committed offsets of group %q changed since the plan was made (%s): nothing was changed; plan again", e.Group, strings.Join(e.Changed, ", "))
}

// groupExists reports whether a polled group is real: the cluster may list a
// group that is only a tombstone (Dead, with no members and no commits), and
// kafka-consumer-groups.sh says such a group does not exist.
func groupExists(g *kafka.Group, ok bool) bool {
	if !ok {
		return false
	}
	return !(g.State == kafka.StateDead && len(g.Members) == 0 && len(g.Partitions) == 0 && g.Err == nil)
}

// writable reports whether offsets may be changed: the group is Empty or
// does not exist.
func writable(exists bool, state string) bool {
	return !exists || state == kafka.StateEmpty
}
