// Package lag turns a stream of kafka.Snapshots into lag intelligence: a
// bounded per-partition history, produce and consume rates, time to catch
// up, time lag in seconds and health verdicts with Burrow's names (OK, WARN,
// STALL, REWIND, STOP, and NO-COMMITS for a live consumer that never
// commits).
//
// Everything here is pure logic over snapshots: no I/O, no clock (callers
// pass "now"), no Kafka client. A History is fed one snapshot per poll and
// queried by `kgroups health`; the UI holds a Tracker, a History that judges
// every group as each snapshot arrives and keeps the series its charts draw.
// While a poll is judged the UI keeps its Tracker in two copies: the front,
// which its screens read, and the back, which a job off the UI loop first
// makes a copy of the front (Tracker.CopyFrom) and then gives the new poll;
// the two then swap. The copies share the bulk of the memory, the History's
// slabs of numbers and the groups' time-lag series, and a ring's spare
// slot takes the back's one poll ahead, so the front reads on unchanged
// with no lock (History.CopyFrom says what makes that safe).
//
// # History
//
// Per partition and poll a History keeps (committed offset, log-end offset)
// in a ring of Config.Samples polls; per group, the total lag of each poll
// for sparklines. Groups and partitions missing from Config.EvictAfter
// consecutive polls are forgotten, so memory stays bounded (see History).
//
// # Rates and catching up
//
// The produce rate is the log end's growth per second and the consume rate
// the committed offset's, both over the last Config.RatePolls polls, adding
// up the forward steps between consecutive known samples (a reset or rewind
// never makes a rate negative); a commit step from or to a poll at which
// the group had no members is not consumption and is left out. When
// consuming faster than producing beyond the rates' noise, the lag is
// gone in lag / (consume - produce) seconds, at most MaxCatchUpSeconds
// (CatchUp.Capped beyond). At equal rates (within EqualRateMsgs or
// EqualRateShare, whichever is ahead) with messages being produced, a lag
// of at most KeepUpMessages, or KeepUpSeconds of production, is only what
// is in flight: the consumer is keeping up, given rates over enough polls.
// Otherwise it falls behind by produce - consume messages per second (0:
// the lag holds but does not shrink). A group keeps up only when every
// lagging partition does. The group's answer is worked out as each poll is
// added and held against flapping like the verdicts (catchup.go).
//
// # Time lag
//
// As kafka-lag-exporter does, each partition keeps up to Config.TimePoints
// (log-end offset, poll time) points: a log end below the newest point is
// dropped (below the oldest, the table restarts: the log was recreated), and
// a flat run keeps only its first and last point. The time the log end
// passed the committed offset c is interpolated between the neighbouring
// points, and the time lag is now minus that time. A caught-up partition
// (c >= log end) is 0; no commit, no log end or fewer than two points is
// unknown, never 0. Interpolation is above the truth by less than the
// segment's span (one poll interval). A commit older than the oldest point
// is never extrapolated: the producer's rate before the points says nothing
// about it. It is a lower bound (the oldest point's age) until the record
// at it is read.
//
// Those reads are the History's exact cache: WantExact lists the commits
// older than the points (the most lagging first, within a budget, one
// commit per partition so that kafka.Client.CommittedTimestamps reads them
// in one round, batched per leader), the caller reads them off its loop
// and hands the records to AddExact. From then on the time lag of those commits is
// exact (now minus the record's timestamp) in every evaluation, until the
// commit moves; the cache holds only the latest poll's commits and log
// starts. A known log-start record also caps every estimate on its
// partition, and is the exact answer for a commit below the log start. The
// Tracker (the UI) and `kgroups health` drive the same cycle, so they agree.
//
// ExactTimeLag applies the same rules to records read directly
// (`kgroups describe --time-lag`, the group screen's x).
//
// # Health
//
// Each partition is judged on its own commit rhythm (rhythm.go): consumers
// commit per record, every few seconds, after slow batches, on
// checkpoints minutes apart or never, so a rule over a fixed number of
// commits would judge some of them on nothing. A partition keeps, beyond
// its rings, when its current wait began (its latest commit move or
// caught-up poll), its rhythm (the longest of its last waits that ended in
// a commit; its group's when it showed none and its member showed one) and its trend (time lag and
// lag at up to eight of its commits). The window below is
// History.floor: (W-1) x MinDistance, at least two poll intervals. The
// rules (History.verdict), only for a partition with lag > 0 now:
//
//   - REWIND: an observation is below the highest one before it, the
//     current offset has not recovered to that high, and the drop is at
//     most Config.EventHold (at least the window) old;
//   - STOP: no member owns it and its commit stood longer than the
//     window and RhythmFactor times its rhythm (never moved while
//     watched: the window); a group whose commits still move elsewhere is
//     a job without members and is judged as a member's; a simple group
//     (kafka.Group.Simple: no member ever joined it) that showed no
//     rhythm waits (JUDGING) until its commit has stood UnseenRhythms
//     times Config.RhythmCeiling;
//   - STALL: a member owns it and its commit stood as long; with no
//     rhythm seen it waits (Wait, JUDGING) as a simple group does;
//   - WARN: the trend climbs (History.trend: the floors of the time lag
//     and the lag at the commits, by thirds of their span, climb beyond
//     noise and still climb over the last window; the lag in records
//     stands in where time lags are unknown); held at WARN, the
//     records-based rule of behind.go keeps it, and so does the trend's
//     climbing answer (the least-squares line through the time lags at
//     the commits still rises, past the scatter of bursty production);
//     too few commits while the
//     time lag is above what keeping up explains waits (JUDGING);
//   - otherwise OK.
//
// judgeGroup (hold.go) then excuses the partitions that wait their turn
// behind a busy member of the group (WARN or OK by the member's lag).
// kafka/lag/verdictbench scores the rules against simulated ground truth.
//
// Burrow's WARN, a lag that never decreased over the window, is not used:
// it calls a lag of a few records that ticks up WARN, misses a slow
// consumer whose batched commits make its lag dip in every window (a
// sawtooth), and calls a consumer that keeps pace a fixed delay behind
// WARN because its lag never reaches zero.
//
// The hold rule (hold.go) keeps a status from flapping: once a partition
// was decided (a full window and, when it lags, a trend with the commits
// to tell), a change between OK and WARN is reported only after the rules
// gave it Config.Hold polls in a row; STOP, REWIND, STALL, NO-COMMITS and
// a lag of 0 are facts and change it at once, and the first decision is
// not held (a WARN before it is).
//
// A REWIND that a reset made by kgroups explains (History.NoteReset: the
// reset took the partition from at least the high to at most the low)
// carries that reset in PartitionHealth.ResetBy, so it is not reported as
// a consumer's fault; its status stays REWIND.
//
// A partition a live member owns with no committed offset (and whose
// group's offsets were read) has no lag to judge; it is NO-COMMITS once
// that has lasted W observations (polls at least MinDistance apart), WARN
// severity, between WARN and STALL in the order of statuses.
//
// STOP and REWIND apply to a window of any size; STALL, WARN and
// NO-COMMITS wait for a full window (GroupHealth.Complete says whether
// every partition that waits has one).
// A group's status is its worst partition's; STALL, REWIND and STOP are
// SeverityErr, WARN and NO-COMMITS SeverityWarn.
//
// # Verdicts
//
// Judge turns a group's evaluation into the Verdict the UI and `kgroups
// health` both show, so that they cannot disagree: unknown when nothing
// can be judged, JUDGING (never OK) while the group itself has been seen
// fewer than W times or a partition that waits has fewer than W
// observations, ERR and WARN as soon as the rules find them, and a maximum
// time lag that is a lower bound while a lagging partition's time lag is
// unknown (and unknown, not 0s, when the rest is caught up). The UI's
// Tracker judges every group once per poll, and every screen reads that
// verdict. Verdict.Text and PartitionHealth.Text are its words: OK, WARN,
// WARN NO-COMMITS, ERR STALL, JUDGING 3/10, or "-".
package lag
