package recording

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// Version is the format this build writes. Versions lists those it reads.
const Version = 1

// Versions are the format versions this build reads.
var Versions = []int{1}

// magic opens every recording. The version follows it, two bytes big
// endian, so that a reader can name the version of a file it refuses.
const magic = "KGROUPS-RECORDING\n"

// Ext is the file extension recordings are given.
const Ext = ".kgrec"

// A frame is its payload's length (4 bytes, big endian), the CRC-32C of
// the payload (4 bytes), then the payload, whose first byte is its kind.
const (
	frameHeader = 8
	// MaxFrame bounds one frame: a poll of 120,000 partitions, written
	// whole, takes a few megabytes.
	MaxFrame = 256 << 20

	kindHeader byte = 'H'
	kindPoll   byte = 'P'
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header is what a recording says about itself, once, at its start.
type Header struct {
	// Version is the file's format version.
	Version int
	// Started is when the recording began.
	Started time.Time
	// Refresh is the time between polls the recorder aimed at.
	Refresh time.Duration
	// Window is the window the recorder judged over (kgroups health
	// --window); 0 means the groups screen's history.
	Window time.Duration
	// Groups are the groups recorded, sorted; empty means every group.
	Groups []string
	// Cluster names the cluster: its bootstrap brokers, or pseudonyms in
	// a redacted recording.
	Cluster []string
	// Redacted says names were replaced with stable pseudonyms.
	Redacted bool
	// Program is the kgroups that wrote the file ("kgroups 1.4.0").
	Program string
}

// Poll is one poll as recorded: the snapshot, or the error that kept it
// from being taken, and the records read at commits after it for exact
// time lags.
type Poll struct {
	// Time is when the poll started (Snapshot.Time when there is one).
	Time time.Time
	// Snapshot is nil when the poll failed.
	Snapshot *kafka.Snapshot
	// Err is why the poll failed.
	Err error
	// Exact are the records read at commits after the poll (the exact
	// time-lag cycle, lag.Tracker.WantExact), nil when none was read.
	Exact map[kafka.CommitKey]kafka.RecordTime
}

// Error is an error as recorded: its words, byte for byte. Its type is
// not kept.
type Error string

func (e Error) Error() string { return string(e) }

// VersionError is a file of a format version this build does not read.
type VersionError struct{ Got int }

func (e *VersionError) Error() string {
	vs := make([]string, len(Versions))
	for i, v := range Versions {
		vs[i] = strconv.Itoa(v)
	}
	newer := "an older"
	if e.Got > Version {
		newer = "a newer"
	}
	return fmt.Sprintf("recording format version %d is %s format than this kgroups reads (it reads version %s): open it with the kgroups that wrote it", e.Got, newer, strings.Join(vs, ", "))
}

func appendFrame(dst []byte, payload []byte) []byte {
	var h [frameHeader]byte
	binary.BigEndian.PutUint32(h[:4], uint32(len(payload)))
	binary.BigEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
	dst = append(dst, h[:]...)
	return append(dst, payload...)
}

func encodeHeader(h Header) []byte {
	e := enc{b: []byte{kindHeader}}
	e.varint(h.Started.UnixNano())
	e.varint(int64(h.Refresh))
	e.varint(int64(h.Window))
	e.uvarint(uint64(len(h.Groups)))
	for _, g := range h.Groups {
		e.bytes([]byte(g))
	}
	e.uvarint(uint64(len(h.Cluster)))
	for _, c := range h.Cluster {
		e.bytes([]byte(c))
	}
	e.bool(h.Redacted)
	e.bytes([]byte(h.Program))
	return e.b
}

func decodeHeader(b []byte, version int) (Header, error) {
	d := dec{b: b}
	h := Header{Version: version}
	if d.byte() != kindHeader {
		return h, fmt.Errorf("%w: the first frame is not the header", errCorrupt)
	}
	h.Started = unixNano(d.varint())
	h.Refresh = time.Duration(d.varint())
	h.Window = time.Duration(d.varint())
	h.Groups = make([]string, d.count(1))
	for i := range h.Groups {
		h.Groups[i] = string(d.bytes())
	}
	h.Cluster = make([]string, d.count(1))
	for i := range h.Cluster {
		h.Cluster[i] = string(d.bytes())
	}
	h.Redacted = d.bool()
	h.Program = string(d.bytes())
	if d.err == nil && (h.Refresh < 0 || h.Window < 0) {
		d.fail("a negative refresh or window")
	}
	return h, d.err
}

// unixNano is the time n nanoseconds after the epoch, in the local zone,
// as a live poll's time.
func unixNano(n int64) time.Time { return time.Unix(0, n) }
