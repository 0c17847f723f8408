// Package rebalance makes a consumer group's rebalances visible and
// controllable: a bounded Timeline of what successive snapshots show
// (state changes, members joining and leaving, partitions moving, KIP-848
// epochs, how long each rebalance took), a what-if Simulate that runs
// franz-go's own assignors offline on the members' real subscription
// metadata, and member removal (PlanRemoval, Remove, Wait), which is the
// only way an administrator can make the coordinator rebalance a group.
// Service is how the CLI and the TUI remove members: it writes the
// removal's receipt (kafka/receipt) before anything is sent, then removes
// and waits.
//
// The timeline and the simulator are pure functions of snapshots; only
// Remove and Wait talk to the cluster.
package rebalance
