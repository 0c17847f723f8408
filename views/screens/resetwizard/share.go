package resetwizard

import (
	"errors"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/render"
)

// A share group (KIP-932) has start offsets rather than commits, and accepts
// only some scenarios (kreset.ShareAccepts). The wizard offers only those
// once it knows the group is a share group: from the caller (the poll's
// group type), from a plan, or from the service refusing a scenario.

// ForGroupType adapts the wizard to a group of type t and returns it: for
// a share group, the scenarios it does not accept are not offered, and the
// tables and texts say start offset. Other types leave it as it is.
func (m *Model) ForGroupType(t kafka.GroupType) *Model {
	if t != kafka.TypeShare || m.share {
		return m
	}
	m.share = true
	var keep []scenario
	for _, s := range m.choices {
		if reset.ShareAccepts(s.kind) {
			keep = append(keep, s)
		}
	}
	m.choices = keep
	if m.choice >= len(keep) {
		m.choice = 0
	}
	m.planTab.Cols = planCols(kafka.TypeShare)
	m.resTab.Cols = resultCols(kafka.TypeShare)
	m.delTab.Cols = deleteCols()
	m.delTab.Cols[2].Title = "START-OFFSET"
	return m
}

// learnType adapts the wizard to what the service found: a plan of a share
// group, or a refusal of a scenario a share group does not accept. It
// reports the refusal: the wizard then goes back to the scenario step,
// which shows it above the scenarios that remain.
func (m *Model) learnType(p *reset.Plan, del *reset.GroupDeletion, err error) (refused bool) {
	var se *reset.ShareScenarioError
	switch {
	case errors.As(err, &se):
		m.ForGroupType(kafka.TypeShare)
		return true
	case p != nil:
		m.ForGroupType(p.Type)
	case del != nil:
		m.ForGroupType(del.Type)
	}
	return false
}

// offsetNoun is what the group's offsets are called: committed offsets,
// or a share group's start offsets.
func (m *Model) offsetNoun() (one, many string) {
	if m.share {
		return "start offset", "start offsets"
	}
	return "committed offset", "committed offsets"
}

func planColumnsFor(t kafka.GroupType) []render.Column[PlanRow] { return render.PlanColumnsFor(t) }

func resultColumnsFor(t kafka.GroupType) []render.Column[ResultRow] {
	return render.ResultColumnsFor(t)
}
