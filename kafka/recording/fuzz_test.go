package recording

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"runtime"
	"testing"
)

// FuzzReader feeds the reader arbitrary bytes, their checksums made right
// so that the mutations reach the decoder: it must never panic, and what
// it allocates stays within a fixed multiple of its input, whatever
// counts and lengths the input claims.
func FuzzReader(f *testing.F) {
	polls := evolvingPolls(3)
	polls[1].Snapshot = hostile(polls[1].Snapshot.Time)
	f.Add(record(f, Header{Groups: []string{"g"}}, polls))
	f.Add([]byte(magic + "\x00\x01"))
	if b, err := os.ReadFile("testdata/v1.kgrec"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		defer func() {
			runtime.ReadMemStats(&after)
			// bufio's buffer, and a few kilobytes per byte of input.
			if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(256<<10+4096*len(b)); got > limit {
				t.Fatalf("read %d bytes, allocated %d (limit %d)", len(b), got, limit)
			}
		}()
		r, err := NewReader(bytes.NewReader(fixChecksums(b)))
		if err != nil {
			return
		}
		for range 10000 {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	})
}

// fixChecksums sets every whole frame's checksum to its payload's.
func fixChecksums(b []byte) []byte {
	b = append([]byte(nil), b...)
	off := len(magic) + 2
	for off+frameHeader <= len(b) {
		n := int(binary.BigEndian.Uint32(b[off:]))
		end := off + frameHeader + n
		if n > len(b) || end > len(b) {
			break
		}
		binary.BigEndian.PutUint32(b[off+4:], crc32.Checksum(b[off+frameHeader:end], castagnoli))
		off = end
	}
	return b
}
