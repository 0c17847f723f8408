// Package resetwizard is the reset wizard of the TUI. Its plan and result tables
// have the columns of `kgroups reset`, `undo` and `delete-offsets`, defined
// once in views/render, so that the screen and the command line show a plan
// the same way.
package resetwizard

import (
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/render"
)

type (
	// PlanRow is one row of a plan table.
	PlanRow = render.PlanRow
	// ResultRow is one row of an applied change.
	ResultRow = render.ResultRow
)

// PlanColumns are the columns of a reset plan.
func PlanColumns() []columns.Column[PlanRow] { return render.PlanColumns() }

// ResultColumns are the columns of an applied change.
func ResultColumns() []columns.Column[ResultRow] { return render.ResultColumns() }

// ResultRows turns a result into table rows.
func ResultRows(res *reset.Result) []ResultRow { return render.ResultRows(res) }
