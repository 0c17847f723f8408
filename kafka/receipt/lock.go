package receipt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// LockWait is how long a write waits for another kgroups on this machine
// to finish with the same group before it is refused.
const LockWait = 5 * time.Second

// lockPoll is how often a waiting write tries the lock again.
const lockPoll = 50 * time.Millisecond

// Holder is who holds a group's lock, as its lock file records it.
type Holder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

func (h Holder) String() string {
	if h.PID == 0 {
		return "a kgroups that has not said who it is"
	}
	return fmt.Sprintf("pid %d on %s, since %s", h.PID, h.Host, h.Since.UTC().Format(time.RFC3339))
}

// LockedError is the refusal of a write because another kgroups on this
// machine is changing the same group of the same cluster.
type LockedError struct {
	Group  string
	Holder Holder
	// Path is the lock file.
	Path string
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("group %q is being changed by another kgroups (%s; lock %s): nothing was changed; try again when it has finished", e.Group, e.Holder, e.Path)
}

// Lock is an advisory lock on one group of one cluster, held by this
// process from the re-check before a write to the re-read after it, so
// that two kgroups on one machine cannot interleave their writes to the
// same group. Its file is hidden in the receipts directory, next to the
// receipts of the writes it guards, and removed when the lock is released.
type Lock struct {
	// Path is the lock file.
	Path string
	// Note is set when the lock was taken over from a process that died
	// holding it: it names that process.
	Note string
	// ClusterID is the id of the cluster the lock was taken for ("" for
	// a cluster without one): what the receipt of the write records.
	ClusterID string
	unlock    func() error
}

// Unlock releases the lock; a nil Lock is fine.
func (l *Lock) Unlock() error {
	if l == nil || l.unlock == nil {
		return nil
	}
	u := l.unlock
	l.unlock = nil
	return u()
}

// Cluster is how a lock names the cluster: by its id when the cluster has
// one (every Kafka since 0.10.1), so that two spellings of its brokers
// (localhost:9092 and 127.0.0.1:9092, one broker or another) take the same
// lock; by its bootstrap brokers, sorted, only when it has none.
type Cluster struct {
	ID      string
	Brokers []string
}

// key is the cluster's part of a lock's name.
func (c Cluster) key() string {
	if c.ID != "" {
		return "id:" + c.ID
	}
	bs := make([]string, len(c.Brokers))
	for i, b := range c.Brokers {
		bs[i] = strings.ToLower(strings.TrimSpace(b))
	}
	slices.Sort(bs)
	return "brokers:" + strings.Join(bs, ",")
}

// LockGroup takes the lock on group of cluster, in dir (the receipts
// directory). While another process
// holds it, LockGroup tries again until LockWait has passed (or ctx's
// deadline, if sooner) and then returns a *LockedError naming the holder.
// A lock whose holder is gone is taken over, and Lock.Note says so.
func LockGroup(ctx context.Context, dir string, cluster Cluster, group string) (*Lock, error) {
	if dir == "" {
		return nil, errors.New("no receipts directory for the lock")
	}
	if err := prepareDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, lockName(cluster, group))
	deadline := time.Now().Add(LockWait)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	for {
		l, holder, err := tryLock(path)
		if IsUnsafe(err) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if l != nil {
			l.ClusterID = cluster.ID
			return l, nil
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return nil, &LockedError{Group: group, Holder: holder, Path: path}
		}
		t := time.NewTimer(min(wait, lockPoll))
		select {
		case <-ctx.Done():
			t.Stop()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, &LockedError{Group: group, Holder: holder, Path: path}
			}
			return nil, fmt.Errorf("waiting for the lock on group %q held by %s: %w", group, holder, ctx.Err())
		case <-t.C:
		}
	}
}

// lockName is the lock file's name for group on the cluster: hidden, then
// the group (made file-safe and short, for people looking) and a hash of
// the cluster's identity and the exact group (so that names that look
// alike do not share a lock).
func lockName(cluster Cluster, group string) string {
	sum := sha256.Sum256([]byte(cluster.key() + "\x00" + group))
	name := fileSafe(group)
	if len(name) > 40 {
		name = name[:40]
	}
	return "." + name + "-" + hex.EncodeToString(sum[:8]) + ".lock"
}

// me is this process, as its lock files record it.
func me() Holder {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	return Holder{PID: os.Getpid(), Host: host, Since: time.Now().UTC()}
}

func (h Holder) encode() []byte {
	data, _ := json.Marshal(h) // a struct of plain fields cannot fail
	return append(data, '\n')
}

func decodeHolder(data []byte) Holder {
	var h Holder
	if json.Unmarshal(data, &h) != nil {
		return Holder{}
	}
	return h
}

// takeoverNote says that a lock was taken over from a process that is
// gone.
func takeoverNote(path string, h Holder) string {
	return fmt.Sprintf("took over the lock %s, left by %s, which no longer runs", path, h)
}
