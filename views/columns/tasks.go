package columns

import (
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// Tasks renders a streams member's tasks of one kind as
// kafka-streams-groups.sh does, subtopology:[partitions] separated by
// spaces ("0:[0,1] 1:[2]"), or Missing when there are none. The CLI's
// --members table and the UI's Tasks tab both use it.
func Tasks(ts []kafka.TaskIDs) string {
	var parts []string
	for _, t := range ts {
		if len(t.Partitions) > 0 {
			parts = append(parts, t.String())
		}
	}
	if len(parts) == 0 {
		return Missing
	}
	return strings.Join(parts, " ")
}

// TasksEqual reports whether two task lists name the same tasks.
func TasksEqual(a, b []kafka.TaskIDs) bool {
	return Tasks(a) == Tasks(b)
}

// StreamsAssignments is the ASSIGNMENTS cell of describe --members for a
// streams member: each kind of task it has, "ACTIVE: 0:[0,1] 1:[0]",
// "STANDBY: ..." and "WARMUP: ...", separated by "; ", then for each kind
// whose target differs, "TARGET-ACTIVE: ..." and so on. A member with no
// tasks and no target shows Missing.
func StreamsAssignments(m *kafka.StreamsMember) string {
	var parts []string
	kinds := []struct {
		name        string
		cur, target []kafka.TaskIDs
	}{
		{"ACTIVE", m.Tasks.Active, m.TargetTasks.Active},
		{"STANDBY", m.Tasks.Standby, m.TargetTasks.Standby},
		{"WARMUP", m.Tasks.Warmup, m.TargetTasks.Warmup},
	}
	for _, k := range kinds {
		if s := Tasks(k.cur); s != Missing {
			parts = append(parts, k.name+": "+s)
		}
	}
	for _, k := range kinds {
		if !TasksEqual(k.cur, k.target) {
			parts = append(parts, "TARGET-"+k.name+": "+Tasks(k.target))
		}
	}
	if len(parts) == 0 {
		return Missing
	}
	return strings.Join(parts, "; ")
}
