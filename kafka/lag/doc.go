// Package lag turns a stream of kafka.Snapshots into lag intelligence: a
// bounded per-partition history, produce and consume rates, time to catch
// up, time lag in seconds (interpolated from log-end offsets, in the manner
// of kafka-lag-exporter) and Burrow-style health verdicts (OK, WARN, STALL,
// STOP, REWIND).
//
// Everything here is pure logic over snapshots: no I/O, no clocks (callers
// pass "now"), no Kafka client. A History is fed one snapshot per poll and
// queried by the TUI and by `kgroups health`.
package lag
