package receipt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DuplicateKeyError is a receipt with a key given twice in one object,
// exactly or in another case ("group" and "Group"). encoding/json takes
// the last of them, matching case-insensitively, while a reader of the
// file sees the first: the text would say one thing and undo act on
// another, and the checksum and signature, computed over what was
// decoded, would still match.
type DuplicateKeyError struct {
	// Key is the key as it appears the second time; First as it did the
	// first time.
	Key, First string
	// Where is the path of the object holding them ("offsets[1]"), ""
	// for the top level.
	Where string
}

func (e *DuplicateKeyError) Error() string {
	where := ""
	if e.Where != "" {
		where = " in " + e.Where
	}
	also := ""
	if e.Key != e.First {
		also = fmt.Sprintf(" (also as %q)", e.First)
	}
	return fmt.Sprintf("key %q appears twice%s%s: a receipt whose text can say one thing while kgroups reads another is refused; kgroups never writes one, so check where it came from", e.Key, also, where)
}

// CheckKeys refuses JSON that gives a key twice in one object, exactly or
// in another case (as encoding/json folds them), at any depth: receipts
// are verified over one reading of their text only.
func CheckKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := checkValue(dec, ""); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("text after the JSON document")
	}
	return nil
}

func checkValue(dec *json.Decoder, where string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		seen := map[string]string{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			folded := strings.ToLower(strings.ToUpper(key))
			if first, dup := seen[folded]; dup {
				return &DuplicateKeyError{Key: key, First: first, Where: where}
			}
			seen[folded] = key
			sub := key
			if where != "" {
				sub = where + "." + key
			}
			if err := checkValue(dec, sub); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; dec.More(); i++ {
			if err := checkValue(dec, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}
