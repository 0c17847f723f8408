package receipt

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kgroups/kgroups/config"
)

// Receipts are signed with a key of this user's: an HMAC-SHA256 over the
// receipt (its compact JSON without the signature) with 32 random bytes
// kept in the state directory, mode 0600, made on first use. A valid
// signature proves that this user's kgroups, with this key, wrote the
// receipt and that it was not changed since. It does not prove that what
// the receipt records is still true of the cluster, nor protect against
// anyone who can read the key (this user, root, a backup of the state
// directory), nor say anything about a receipt from another user or
// machine: those are unsigned to this kgroups, as is every receipt written
// before signatures.

// KeyFile is the signing key's name in the state directory.
const KeyFile = "receipts.key"

// SignaturePrefix starts every signature: it names the MAC.
const SignaturePrefix = "hmac-sha256:"

// keySize is the key's length in bytes.
const keySize = 32

// StateDirOf is the state directory that holds the receipts folder dir,
// and so the key its receipts are signed with.
func StateDirOf(receiptsDir string) string { return filepath.Dir(receiptsDir) }

// DefaultStateDir is the state directory of this user: where the key
// that signs and verifies receipts lives.
func DefaultStateDir() (string, error) {
	dir, err := config.StateDir()
	if err != nil {
		return "", fmt.Errorf("find the state directory: %w", err)
	}
	return dir, nil
}

// loadKey reads the key in stateDir; with create, a missing key is made
// (and a missing state directory too). Without create, a missing key is
// (nil, nil): nothing was ever signed with it.
func loadKey(stateDir string, create bool) ([]byte, error) {
	if stateDir == "" {
		return nil, errors.New("no state directory for the receipts key")
	}
	if create {
		if err := os.MkdirAll(stateDir, 0o700); err != nil {
			return nil, fmt.Errorf("create the state directory: %w", err)
		}
	}
	if err := checkDir(stateDir); err != nil {
		if errors.Is(err, fs.ErrNotExist) && !create {
			return nil, nil
		}
		return nil, err
	}
	path := filepath.Join(stateDir, KeyFile)
	for range 2 {
		key, err := readKey(path)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return key, err
		}
		if !create {
			return nil, nil
		}
		key, err = makeKey(path)
		if errors.Is(err, fs.ErrExist) {
			continue // made by another kgroups meanwhile: read it
		}
		return key, err
	}
	return nil, fmt.Errorf("receipts key %s: made and gone again", path)
}

func readKey(path string) ([]byte, error) {
	f, err := openSafe(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, 1024))
	if err != nil {
		return nil, fmt.Errorf("read receipts key %s: %w", path, err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) != keySize {
		return nil, &UnsafeFileError{Path: path, Problem: fmt.Sprintf("it is not a receipts key (%d hex digits on one line)", 2*keySize)}
	}
	return key, nil
}

func makeKey(path string) ([]byte, error) {
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make receipts key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	_, werr := f.WriteString(hex.EncodeToString(key) + "\n")
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(path)
		return nil, fmt.Errorf("write receipts key %s: %w", path, err)
	}
	return key, nil
}

// mac is the signature of r under key: SignaturePrefix and the hex
// HMAC-SHA256 of r's compact JSON with its signature left out (its
// checksum included).
func mac(r Record, key []byte) (string, error) {
	h := r.ReceiptHeader()
	saved := h.Signature
	h.Signature = ""
	data, err := json.Marshal(r)
	h.Signature = saved
	if err != nil {
		return "", fmt.Errorf("encode receipt: %w", err)
	}
	m := hmac.New(sha256.New, key)
	m.Write(data)
	return SignaturePrefix + hex.EncodeToString(m.Sum(nil)), nil
}

// Signature is what Verify found of a receipt's signature.
type Signature int

const (
	// Unsigned is a receipt without a signature (another user's kgroups
	// that does not sign, one before signatures, or a file made by hand).
	Unsigned Signature = iota
	// Foreign is a signature this user's key did not make: the receipt
	// was changed after it was signed, or signed with another key.
	Foreign
	// Signed is a receipt this user's kgroups wrote, unchanged since.
	Signed
)

// Verify checks r's signature with the key in stateDir. A state directory
// without a key has signed nothing, so any signature is Foreign. The error
// is for a key that cannot be read or is not safe to use.
func Verify(r Record, stateDir string) (Signature, error) {
	sig := r.ReceiptHeader().Signature
	if sig == "" {
		return Unsigned, nil
	}
	key, err := loadKey(stateDir, false)
	if err != nil || key == nil {
		return Foreign, err
	}
	want, err := mac(r, key)
	if err != nil {
		return Foreign, err
	}
	if !hmac.Equal([]byte(want), []byte(sig)) {
		return Foreign, nil
	}
	return Signed, nil
}

// UnsignedNote and ForeignNote say what an unverified receipt is, for
// the command line and the docs alike.
const (
	UnsignedNote = "it is unsigned: not written by your kgroups (another user's, a kgroups before signed receipts, or made by hand)"
	ForeignNote  = "its signature is not your kgroups' (it was changed after it was written, or written with another key)"
)

// Note is what a reader is told of a receipt with signature s ("" for
// Signed).
func (s Signature) Note() string {
	switch s {
	case Unsigned:
		return UnsignedNote
	case Foreign:
		return ForeignNote
	}
	return ""
}
