package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// recorder logs every write it receives, tagged with the stream's name.
type recorder struct {
	name string
	log  *[]string
}

func (r recorder) Write(b []byte) (int, error) {
	*r.log = append(*r.log, r.name+":"+string(b))
	return len(b), nil
}

// TestPairedStreamsKeepOrder: writers that are not files may be one
// destination, so a switch of stream writes the other out first; writes to
// one stream in a row become one write.
func TestPairedStreamsKeepOrder(t *testing.T) {
	var log []string
	out, errw, flush := pairedStreams(recorder{"out", &log}, recorder{"err", &log})
	for _, w := range []struct {
		to   io.Writer
		text string
	}{{errw, "note1\n"}, {out, "table1\n"}, {out, "\ntable2\n"}, {errw, "note3\n"}, {out, "table3\n"}} {
		if _, err := io.WriteString(w.to, w.text); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"err:note1\n", "out:table1\n\ntable2\n", "err:note3\n"}; !slices.Equal(log, want) {
		t.Fatalf("before flush, writes %q, want %q", log, want)
	}
	if err := flush(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"err:note1\n", "out:table1\n\ntable2\n", "err:note3\n", "out:table3\n"}; !slices.Equal(log, want) {
		t.Fatalf("after flush, writes %q, want %q", log, want)
	}
}

// TestPairedStreamsFiles: one file as both streams keeps the order of
// notes and tables; two different files each get their own text, written
// only when the buffers fill or flush is called.
func TestPairedStreamsFiles(t *testing.T) {
	dir := t.TempDir()
	open := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Close() })
		return f
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(out, errw io.Writer) {
		for i, w := range []io.Writer{errw, out, errw, out} {
			if _, err := io.WriteString(w, []string{"n1\n", "t1\n", "n2\n", "t2\n"}[i]); err != nil {
				t.Fatal(err)
			}
		}
	}

	both := open("both")
	out, errw, flush := pairedStreams(both, both)
	write(out, errw)
	if err := flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := read("both"), "n1\nt1\nn2\nt2\n"; got != want {
		t.Errorf("one file: %q, want %q", got, want)
	}

	o, e := open("out"), open("err")
	out, errw, flush = pairedStreams(o, e)
	write(out, errw)
	if got := read("out") + read("err"); got != "" {
		t.Errorf("two files before flush: %q written, want nothing yet", got)
	}
	if err := flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := read("out"), "t1\nt2\n"; got != want {
		t.Errorf("stdout file: %q, want %q", got, want)
	}
	if got, want := read("err"), "n1\nn2\n"; got != want {
		t.Errorf("stderr file: %q, want %q", got, want)
	}
}
