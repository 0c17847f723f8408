package reset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// Receipt is written before any change to a group's offsets, so that every
// change can be undone: after the common header (where, who, when), what was
// asked and each partition's offset before and after. Its action is
// receipt.ActionReset, ActionUndo, ActionDeleteOffsets or ActionDeleteGroup.
type Receipt struct {
	receipt.Header
	// GroupType is "share" for a share group, whose offsets are start
	// offsets that undo sets with AlterShareGroupOffsets; empty for a
	// consumer group.
	GroupType string `json:"groupType,omitempty"`
	Scenario  string `json:"scenario"`
	Scope     string `json:"scope"`
	// GroupState is the group's state when the change was applied, empty
	// when the group did not exist.
	GroupState string          `json:"groupState"`
	Offsets    []ReceiptOffset `json:"offsets"`

	// Path is where the receipt was written or read from.
	Path string `json:"-"`
	// Authenticity is what ReadReceipt found of its signature: only a
	// receipt receipt.Signed was written, unchanged, by this user's
	// kgroups.
	Authenticity receipt.Signature `json:"-"`
}

// ReceiptOffset is one partition's offset before and after the change; null
// means no commit (before: there was none; after: it was removed).
type ReceiptOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Before    *int64 `json:"before"`
	After     *int64 `json:"after"`
}

func offsetPtr(o int64) *int64 {
	if o < 0 {
		return nil
	}
	return &o
}

// WriteReceipt writes r into dir with receipt.Write's guarantees (private,
// never overwriting, synced before it returns) and records the path in r.
func WriteReceipt(dir string, r *Receipt) (string, error) {
	path, err := receipt.Write(dir, r)
	if err != nil {
		return "", err
	}
	r.Path = path
	return path, nil
}

// LoadReceipt reads and checks a receipt as ReadReceipt does without force,
// dropping its notes.
func LoadReceipt(path string) (*Receipt, error) {
	r, _, err := ReadReceipt(context.Background(), path, false)
	return r, err
}

// receiptTooLargeHint says what to do with a receipt over the cap.
const receiptTooLargeHint = "kgroups writes receipts far smaller than that; is this the right file?"

// ReceiptNote is something the reader of a receipt should be told: a
// warning (the receipt was accepted only because of force) or a note.
type ReceiptNote struct {
	Warning bool
	Text    string
}

// ReadReceipt reads and checks a receipt. A receipt from a newer kgroups, or
// one that is incomplete or inconsistent, is an error naming the file and
// what is wrong with it: undo must never act on a guess. The file is read
// through config.MaxReceiptBytes at most, and not at all once ctx is done.
//
// A receipt whose checksum does not match its contents (it was edited), or
// whose action is not one kgroups writes, is refused unless force; with
// force it is accepted and the notes say what is wrong with it. A receipt
// without a checksum (from a kgroups before checksums) is accepted with the
// note receipt.NoChecksumNote. Its signature is checked with this user's
// key (receipt.Verify) into Authenticity; one not receipt.Signed is read,
// with a warning, and applying it is for the caller to guard.
func ReadReceipt(ctx context.Context, path string, force bool) (*Receipt, []ReceiptNote, error) {
	// A receipt is a file kgroups wrote: a FIFO (which would hold the
	// read until a writer came), a device or a folder is refused before
	// it is opened.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("receipt %s is %s, not a regular file: give the path of a receipt kgroups wrote", path, fileKind(st.Mode()))
	}
	data, err := config.ReadFileBounded(ctx, path, config.MaxReceiptBytes, "receipt", receiptTooLargeHint)
	if err != nil {
		var tl *config.TooLargeError
		if errors.As(err, &tl) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("read receipt: %w", err)
	}
	if err := receipt.CheckKeys(data); err != nil {
		var dup *receipt.DuplicateKeyError
		if errors.As(err, &dup) {
			return nil, nil, fmt.Errorf("receipt %s: %w; nothing was changed", path, err)
		}
		return nil, nil, fmt.Errorf("receipt %s is not a kgroups receipt: %w", path, err)
	}
	var head struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(data, &head) == nil && head.Action == receipt.ActionRemoveMembers {
		return nil, nil, fmt.Errorf("receipt %s records members removed from a group: it has no offsets to restore, and removed members rejoin by themselves", path)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Receipt
	if err := dec.Decode(&r); err != nil {
		return nil, nil, fmt.Errorf("receipt %s is not a kgroups receipt: %w", path, err)
	}
	bad := func(format string, args ...any) (*Receipt, []ReceiptNote, error) {
		return nil, nil, fmt.Errorf("receipt %s: %s", path, fmt.Sprintf(format, args...))
	}
	if r.Version != receipt.Version {
		return bad("version %d; this kgroups reads version %d", r.Version, receipt.Version)
	}
	if r.GroupType != "" && r.GroupType != string(kafka.TypeShare) {
		return bad("unknown groupType %q; this kgroups restores the offsets of consumer groups (no groupType) and share groups (%q)", r.GroupType, kafka.TypeShare)
	}
	var notes []ReceiptNote
	note, err := receipt.Check(&r)
	var cerr *receipt.ChecksumError
	switch {
	case errors.As(err, &cerr) && force:
		notes = append(notes, ReceiptNote{true, fmt.Sprintf("receipt %s: %v; going ahead because of --force", path, err)})
	case errors.As(err, &cerr):
		return bad("%v. Undo acts only on receipts as kgroups wrote them: check the group, offsets and action it names, and add --force to use it anyway", err)
	case err != nil:
		return bad("%v", err)
	case note != "":
		notes = append(notes, ReceiptNote{false, fmt.Sprintf("receipt %s: %s", path, note)})
	}
	// The signature covers the file as written, so it is checked before
	// anything is decoded further.
	stateDir, err := receipt.DefaultStateDir()
	if err != nil {
		return bad("%v", err)
	}
	if r.Authenticity, err = receipt.Verify(&r, stateDir); err != nil {
		return bad("check its signature: %v", err)
	}
	if n := r.Authenticity.Note(); n != "" {
		notes = append(notes, ReceiptNote{true, fmt.Sprintf("receipt %s: %s", path, n)})
	}
	// A group id that is not UTF-8 is acted on by its exact bytes.
	exact, err := r.ExactGroup()
	switch {
	case err != nil:
		return bad("%v", err)
	case r.GroupBase64 != "" && strings.ToValidUTF8(exact, "\uFFFD") != r.Group:
		return bad("group %q and groupBase64 name different groups", r.Group)
	}
	r.Group = exact
	switch {
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
	if !undoableAction(r.Action) {
		if !force {
			return bad("unknown action %q; undo restores the offsets recorded by %s. Add --force to use it anyway", r.Action, strings.Join(undoableActions, ", "))
		}
		notes = append(notes, ReceiptNote{true, fmt.Sprintf("receipt %s: unknown action %q; going ahead because of --force", path, r.Action)})
	}
	r.Path = path
	return &r, notes, nil
}

// undoableActions are the actions whose receipts undo restores.
var undoableActions = []string{receipt.ActionReset, receipt.ActionUndo, receipt.ActionDeleteOffsets, receipt.ActionDeleteGroup}

func undoableAction(a string) bool { return slices.Contains(undoableActions, a) }

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

// fileKind names what a file that is not a regular file is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}
