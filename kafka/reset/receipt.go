package reset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// ReceiptVersion is the version of the receipt format this kgroups writes
// and reads.
const ReceiptVersion = 1

// Receipt actions.
const (
	ActionReset         = "reset"
	ActionUndo          = "undo"
	ActionDeleteGroup   = "delete-group"
	ActionDeleteOffsets = "delete-offsets"
	// ActionRemoveMembers marks the record kgroups rebalance writes before
	// removing members; it restores nothing.
	ActionRemoveMembers = "remove-members"
)

// Receipt is written before any change to a group's offsets, so that every
// change can be undone: it records where, who, when, what was asked and
// each partition's offset before and after. It holds no credentials: the
// cluster is identified by its bootstrap brokers and context name only.
type Receipt struct {
	Version  int       `json:"version"`
	Action   string    `json:"action"`
	Cluster  []string  `json:"cluster"`
	Context  string    `json:"context,omitempty"`
	Group    string    `json:"group"`
	Time     time.Time `json:"time"`
	User     string    `json:"user"`
	Scenario string    `json:"scenario"`
	Scope    string    `json:"scope"`
	// GroupState is the group's state when the change was applied, empty
	// when the group did not exist.
	GroupState string          `json:"groupState"`
	Offsets    []ReceiptOffset `json:"offsets"`

	// Path is where the receipt was written or read from.
	Path string `json:"-"`
}

// ReceiptOffset is one partition's offset before and after the change; null
// means no commit (before: there was none; after: it was removed).
type ReceiptOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Before    *int64 `json:"before"`
	After     *int64 `json:"after"`
}

// DefaultReceiptDir is $XDG_STATE_HOME/kgroups/receipts (or
// ~/.local/state/kgroups/receipts): state worth keeping, but not
// configuration.
func DefaultReceiptDir() (string, error) {
	dir, err := config.StateDir()
	if err != nil {
		return "", fmt.Errorf("find the receipts directory: %w", err)
	}
	return filepath.Join(dir, "receipts"), nil
}

// CurrentUser names who made a change, for the receipt: the login name, else
// $USER, else "unknown".
func CurrentUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	for _, env := range []string{"USER", "USERNAME", "LOGNAME"} {
		if v := os.Getenv(env); v != "" {
			return v
		}
	}
	return "unknown"
}

func offsetPtr(o int64) *int64 {
	if o < 0 {
		return nil
	}
	return &o
}

// WriteReceipt writes r as JSON into dir (created 0700 if missing) under a
// new, time-stamped name, with mode 0600: a receipt reveals group and topic
// names, so only its owner may read it. It never overwrites a file. The file
// is synced before WriteReceipt returns, because a change is only applied
// after its receipt is safely on disk.
func WriteReceipt(dir string, r *Receipt) (string, error) {
	path, err := WriteRecord(dir, r.Time, r.Action, r.Group, r)
	if err != nil {
		return "", err
	}
	r.Path = path
	return path, nil
}

// WriteRecord writes v as indented JSON into dir, named after the time, the
// action and the group, with WriteReceipt's guarantees (0700 directory, 0600
// file, never overwriting, synced before it returns). Every kind of receipt
// kgroups writes before a change goes through it.
func WriteRecord(dir string, at time.Time, action, group string, v any) (string, error) {
	if dir == "" {
		return "", errors.New("no receipts directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create receipts directory: %w", err)
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode receipt: %w", err)
	}
	data = append(data, '\n')
	base := at.UTC().Format("20060102T150405.000Z") + "-" + action + "-" + fileSafe(group)
	for i := 1; ; i++ {
		name := base + ".json"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.json", base, i)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 1000 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("create receipt: %w", err)
		}
		_, werr := f.Write(data)
		serr := f.Sync()
		cerr := f.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			_ = os.Remove(path)
			return "", fmt.Errorf("write receipt %s: %w", path, err)
		}
		return path, nil
	}
}

// fileSafe turns a group name into something usable in a file name.
func fileSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// LoadReceipt reads and checks a receipt. A receipt from a newer kgroups, or
// one that is incomplete or inconsistent, is an error naming the file and
// what is wrong with it: undo must never act on a guess.
func LoadReceipt(path string) (*Receipt, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read receipt: %w", err)
	}
	var head struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(data, &head) == nil && head.Action == ActionRemoveMembers {
		return nil, fmt.Errorf("receipt %s records members removed from a group: it has no offsets to restore, and removed members rejoin by themselves", path)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Receipt
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("receipt %s is not a kgroups receipt: %w", path, err)
	}
	bad := func(format string, args ...any) (*Receipt, error) {
		return nil, fmt.Errorf("receipt %s: %s", path, fmt.Sprintf(format, args...))
	}
	switch {
	case r.Version != ReceiptVersion:
		return bad("version %d; this kgroups reads version %d", r.Version, ReceiptVersion)
	case r.Group == "":
		return bad("no group")
	case len(r.Offsets) == 0:
		return bad("no offsets")
	}
	seen := make(map[TP]bool)
	for i, o := range r.Offsets {
		tp := TP{o.Topic, o.Partition}
		switch {
		case ValidTopicName(o.Topic) != "":
			return bad("offset %d: %s", i+1, ValidTopicName(o.Topic))
		case o.Partition < 0:
			return bad("offset %d: negative partition %d", i+1, o.Partition)
		case o.Before != nil && *o.Before < 0, o.After != nil && *o.After < 0:
			return bad("offset %d (%s): negative offset", i+1, tp)
		case seen[tp]:
			return bad("partition %s is listed twice", tp)
		}
		seen[tp] = true
	}
	r.Path = path
	return &r, nil
}

// UndoScenario is the scenario that restores the receipt's "before" offsets:
// a commit where there was one, and removal where there was none.
func UndoScenario(r *Receipt) Scenario {
	sc := Scenario{Kind: Undo, Source: r.Path}
	for _, o := range r.Offsets {
		off := kafka.NoOffset
		if o.Before != nil {
			off = *o.Before
		}
		sc.Rows = append(sc.Rows, FileRow{Topic: o.Topic, Partition: o.Partition, Offset: off})
	}
	return sc
}
