package kafka

import (
	"fmt"
	"regexp"
)

// GroupFilter chooses groups by name and state: the groups `kgroups
// serve` exports and `kgroups health --all-groups` judges, compiled from
// the context's groups settings (config.GroupsConfig), so both commands
// choose the same groups.
type GroupFilter struct {
	// Allow, when not empty, keeps only the groups one of them matches;
	// Deny then drops the groups one of them matches.
	Allow, Deny []*regexp.Regexp
	// SkipEmpty drops the groups in state Empty or Dead.
	SkipEmpty bool
}

// CompileGroupFilter compiles allow and deny patterns (Go regexp syntax,
// matched against the whole group id: "orders-.*" keeps orders-eu, not
// legacy-orders-eu). Its error names the pattern that does not compile.
func CompileGroupFilter(allow, deny []string, skipEmpty bool) (GroupFilter, error) {
	f := GroupFilter{SkipEmpty: skipEmpty}
	for _, list := range []struct {
		name string
		in   []string
		out  *[]*regexp.Regexp
	}{{"allow", allow, &f.Allow}, {"deny", deny, &f.Deny}} {
		for _, p := range list.in {
			re, err := regexp.Compile("^(?:" + p + ")$")
			if err != nil {
				return GroupFilter{}, fmt.Errorf("invalid %s pattern %q: %w (a Go regular expression, matched against the whole group id)", list.name, p, err)
			}
			*list.out = append(*list.out, re)
		}
	}
	return f, nil
}

// Active reports whether the filter leaves out any group at all.
func (f *GroupFilter) Active() bool {
	return f.SkipEmpty || len(f.Allow) > 0 || len(f.Deny) > 0
}

// Keep reports whether g is chosen.
func (f *GroupFilter) Keep(g *Group) bool {
	if f.SkipEmpty && (g.State == StateEmpty || g.State == StateDead) {
		return false
	}
	if len(f.Allow) > 0 && !matchAny(f.Allow, g.Name) {
		return false
	}
	return !matchAny(f.Deny, g.Name)
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
