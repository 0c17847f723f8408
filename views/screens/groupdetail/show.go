package groupdetail

import "github.com/kgroups/kgroups/views/ui"

// show follows a link from the Diagnosis tab: it switches to the
// Partitions or Members tab with the cursor on the row named. A filter
// that hides the row is cleared, so the row can be shown.
func (m *Model) show(tab Tab, find func(i int) bool) {
	if m.g == nil {
		return
	}
	for pass := 0; pass < 2; pass++ {
		for r, i := range m.filter.rows[tab] {
			if find(i) {
				m.tab = tab
				m.wins[tab].Cursor = r
				m.wins[tab].Clamp(len(m.filter.rows[tab]), m.tableRowsFor(tab))
				return
			}
		}
		if m.filter.in[tab].Value() == "" {
			break
		}
		m.filter.in[tab].SetValue("")
		m.refilter()
	}
	m.tab = tab
}

func (m *Model) showPartition(msg ui.ShowPartitionMsg) {
	if msg.Group != m.name {
		return
	}
	m.show(Partitions, func(i int) bool {
		p := &m.g.Partitions[i]
		return p.Topic == msg.Topic && p.Partition == msg.Partition
	})
}

func (m *Model) showMember(msg ui.ShowMemberMsg) {
	if msg.Group != m.name {
		return
	}
	m.show(Members, func(i int) bool { return m.members[i].m.MemberID == msg.MemberID })
}
