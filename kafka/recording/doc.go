// Package recording writes every poll kgroups takes to a file and reads it
// back, so that what a group did can be judged, shown and replayed after
// the fact with the same code as live.
//
// A recording is a header and then one frame per poll. Each frame is
// length-prefixed and checksummed, so that a torn tail (a crash, a
// SIGKILL, a full disk) is detected and ignored: at most the poll being
// written is lost, and the file can be read while it is written. A poll is
// stored as a delta against the one before: a group whose members and
// state did not change costs one byte, a partition whose offsets did not
// move one bit. Strings (group, topic, member names, hosts, errors) are
// stored once per file, byte for byte. Record keys and values are never
// stored.
//
// The format is versioned; docs/recording.md describes it. A reader
// refuses a file of another version with a message naming the versions
// it reads, and bounds everything it allocates by the size of its input.
package recording
