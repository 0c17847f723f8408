package simulate

import (
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// suffixRunes is how much of a member id the tab shows after the client
// id: enough to tell apart the members of one client id.
const suffixRunes = 4

// label names a member as people know it, in at most w cells: its client
// id and the end of its member id, "orders-app (…4a60)". A long client id
// is cut before the suffix, so two members stay apart however narrow the
// column. A member the group does not have (a simulated joiner), or one
// without a client id, is named by its member id, cut at the end. Every
// part is sanitized: ids are the broker's text. The members table, FROM,
// TO and the status line all name members through this one function.
func label(g *kafka.Group, id string, w int, ellipsis string) string {
	var client string
	if g != nil {
		if mem, ok := g.Member(id); ok {
			client = mem.ClientID
		}
	}
	r := []rune(id)
	if client == "" || len(r) <= suffixRunes {
		return format.Truncate(format.Sanitize(id), w, ellipsis)
	}
	suffix := " (" + ellipsis + format.Sanitize(string(r[len(r)-suffixRunes:])) + ")"
	name := format.Sanitize(client)
	room := w - format.Width(suffix)
	if room < 1 {
		return format.Truncate(name+suffix, w, ellipsis)
	}
	return format.Truncate(name, room, ellipsis) + suffix
}

// labels names several members, comma-separated, in at most w cells in
// all: each gets an equal share.
func labels(g *kafka.Group, ids []string, w int, ellipsis string) string {
	if len(ids) == 0 {
		return ""
	}
	share := max(1, (w-2*(len(ids)-1))/len(ids))
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = label(g, id, share, ellipsis)
	}
	return strings.Join(parts, ", ")
}
