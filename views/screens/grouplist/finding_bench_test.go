package grouplist

import (
	"testing"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// BenchmarkTakePoll10000 is the groups screen taking one poll of 10,000
// groups, the diagnosis mark and cause (diagnose.GlanceAt per group) included.
func BenchmarkTakePoll10000(b *testing.B) {
	m := New(viewtest.Common(120, 40, true))
	s := viewtest.ManyGroups(10000)
	msg := ui.DataMsg{Snapshot: s, History: viewtest.History{}}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.Update(msg)
	}
}
