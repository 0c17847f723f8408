// Package receipt writes the record kgroups keeps before it changes a
// group: every receipt starts with the same Header (what was done, to which
// group of which cluster, by whom and when) and is written privately (0700
// directory, 0600 file), never over another file, and synced to disk before
// the change is sent. No change goes ahead without its receipt.
//
// What follows the header is the writer's: kafka/reset records offsets
// before and after (and reads them back for undo), kafka/rebalance the
// members it removes.
package receipt

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kgroups/kgroups/config"
)

// Version is the version of the receipt format this kgroups writes and
// reads.
const Version = 1

// Actions, the header's "action": what the receipt records.
const (
	ActionReset         = "reset"
	ActionUndo          = "undo"
	ActionDeleteGroup   = "delete-group"
	ActionDeleteOffsets = "delete-offsets"
	// ActionRemoveMembers marks the record kgroups rebalance writes before
	// removing members; it restores nothing.
	ActionRemoveMembers = "remove-members"
)

// KnownAction reports whether action is one this kgroups writes.
func KnownAction(action string) bool {
	switch action {
	case ActionReset, ActionUndo, ActionDeleteGroup, ActionDeleteOffsets, ActionRemoveMembers:
		return true
	}
	return false
}

// Header is how every receipt begins. It holds no credentials: the cluster
// is identified by its bootstrap brokers, its cluster id and the context
// name only. A receipt
// type embeds it first, so that its JSON starts with these fields in this
// order.
type Header struct {
	Version int      `json:"version"`
	Action  string   `json:"action"`
	Cluster []string `json:"cluster"`
	// ClusterID is the id of the cluster the change was made on, from its
	// metadata: what undo compares with the cluster it connects to. Empty
	// in receipts from a kgroups before it was recorded, and from brokers
	// before Kafka 0.10.1.
	ClusterID string `json:"clusterId,omitempty"`
	Context   string `json:"context,omitempty"`
	Group     string `json:"group"`
	// GroupBase64 holds the exact bytes of a group id that is not valid
	// UTF-8 (Group then has U+FFFD in their place, as JSON cannot carry
	// them); empty otherwise. ExactGroup gives the id to act on.
	GroupBase64 string    `json:"groupBase64,omitempty"`
	Time        time.Time `json:"time"`
	User        string    `json:"user"`
	// Checksum is Sum of the receipt, set by Write: "sha256:" and 64 hex
	// digits. Receipts written by kgroups before it existed have none.
	Checksum string `json:"checksum,omitempty"`
	// Signature is the HMAC of the receipt with this user's key (see
	// Verify), set by Write after the checksum: "hmac-sha256:" and 64
	// hex digits.
	Signature string `json:"signature,omitempty"`
}

// ExactGroup is the group id the receipt was written for, byte for byte:
// decoded from GroupBase64 when it is set.
func (h *Header) ExactGroup() (string, error) {
	if h.GroupBase64 == "" {
		return h.Group, nil
	}
	b, err := base64.StdEncoding.DecodeString(h.GroupBase64)
	if err != nil {
		return "", fmt.Errorf("groupBase64 is not base64: %w", err)
	}
	return string(b), nil
}

// ReceiptHeader returns the header itself; embedding a Header makes a type
// a Record.
func (h *Header) ReceiptHeader() *Header { return h }

// Record is a receipt: a Header followed by what its writer records.
type Record interface {
	ReceiptHeader() *Header
}

// DefaultDir is $XDG_STATE_HOME/kgroups/receipts (or
// ~/.local/state/kgroups/receipts): state worth keeping, but not
// configuration.
func DefaultDir() (string, error) {
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

// ChecksumPrefix starts every checksum: it names the hash.
const ChecksumPrefix = "sha256:"

// Sum is r's checksum: ChecksumPrefix and the hex SHA-256 of r encoded as
// compact JSON (encoding/json: fields in the order the file has them, no
// spaces or line breaks) with its checksum and signature fields empty, and
// so left out. Anyone can recompute it: it catches accidental edits, not
// deliberate ones, which the signature does.
// For a receipt as kgroups wrote it, that is the file with the "checksum"
// line taken out and every space between tokens removed. A receipt read back
// into its type encodes to the same bytes, so Sum of what was read equals the
// recorded checksum unless the file was changed.
func Sum(r Record) (string, error) {
	h := r.ReceiptHeader()
	saved, sig := h.Checksum, h.Signature
	h.Checksum, h.Signature = "", ""
	data, err := json.Marshal(r)
	h.Checksum, h.Signature = saved, sig
	if err != nil {
		return "", fmt.Errorf("encode receipt: %w", err)
	}
	sum := sha256.Sum256(data)
	return ChecksumPrefix + hex.EncodeToString(sum[:]), nil
}

// NoChecksumNote is what Check says of a receipt without a checksum.
const NoChecksumNote = "no checksum (written by an older kgroups)"

// ChecksumError is a receipt whose recorded checksum does not match its
// contents: it was changed after kgroups wrote it.
type ChecksumError struct {
	Recorded, Computed string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("its checksum does not match its contents (recorded %s, computed %s): it was changed after kgroups wrote it", e.Recorded, e.Computed)
}

// Check compares r's recorded checksum with Sum(r). A match gives "" and
// nil; a receipt without a checksum gives NoChecksumNote and nil; a
// mismatch gives a *ChecksumError.
func Check(r Record) (note string, err error) {
	recorded := r.ReceiptHeader().Checksum
	if recorded == "" {
		return NoChecksumNote, nil
	}
	computed, err := Sum(r)
	if err != nil {
		return "", err
	}
	if computed != recorded {
		return "", &ChecksumError{Recorded: recorded, Computed: computed}
	}
	return "", nil
}

// Write seals r (sets its checksum to Sum(r), then signs it with this
// user's key, in the state directory that holds dir, made on first use)
// and writes it with WriteRecord, named after its header's time, action
// and group. A key that cannot be made, read or trusted is an error, and
// no receipt is written.
//
// A group id that is not valid UTF-8 is recorded twice: in GroupBase64,
// exactly, and in Group with U+FFFD in place of each run of bad bytes, so that the JSON (and
// the checksum over it) reads back as it was written.
func Write(dir string, r Record) (string, error) {
	h := r.ReceiptHeader()
	if group := h.Group; !utf8.ValidString(group) {
		h.GroupBase64 = base64.StdEncoding.EncodeToString([]byte(group))
		h.Group = strings.ToValidUTF8(group, "\uFFFD")
		defer func() { h.Group = group }()
	}
	sum, err := Sum(r)
	if err != nil {
		return "", err
	}
	h.Checksum = sum
	if dir == "" {
		return "", errors.New("no receipts directory")
	}
	key, err := loadKey(StateDirOf(dir), true)
	if err != nil {
		return "", fmt.Errorf("sign receipt: %w", err)
	}
	if h.Signature, err = mac(r, key); err != nil {
		return "", err
	}
	return WriteRecord(dir, h.Time, h.Action, h.Group, r)
}

// prepareDir makes the receipts folder dir (0700) if it is missing,
// tightens one open to others, and refuses one that is a link or not this
// user's (checkDir).
func prepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create receipts directory: %w", err)
	}
	// Best effort: the command line warns when it cannot tighten, and a
	// file system without modes must not stop every write.
	_, _ = Tighten(dir)
	return checkDir(dir)
}

// WriteRecord writes v as indented JSON into dir (created 0700 if missing)
// under a new name made of the time, the action and the group, with mode
// 0600: a receipt reveals group and topic names, so only its owner may read
// it. It never overwrites a file: a name already taken gets a -2, -3, ...
// suffix. The file is synced before WriteRecord returns, because a change
// is only applied after its receipt is safely on disk; on any error no file
// is left behind.
func WriteRecord(dir string, at time.Time, action, group string, v any) (string, error) {
	if dir == "" {
		return "", errors.New("no receipts directory")
	}
	if err := prepareDir(dir); err != nil {
		return "", err
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
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
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

// fileSafe turns a group name into something usable in a file name: ASCII
// letters, digits, '.', '_' and '-' are kept, anything else becomes '_',
// and the result stops at 100 bytes.
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
