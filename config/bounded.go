package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// The most kgroups reads from any one file. A file over its cap is refused
// rather than read to the end, so that a wrong path (a device, a FIFO, a log)
// fails with a clear error instead of filling memory.
const (
	MaxConfigBytes  = 1 << 20   // a configuration file: 1 MiB
	MaxReceiptBytes = 16 << 20  // a receipt: 16 MiB
	MaxCSVBytes     = 256 << 20 // an offsets file for reset --from-file: 256 MiB
	// MaxSecretBytes caps a password, token, CA, certificate or key file:
	// 1 MiB, far above any real one.
	MaxSecretBytes = 1 << 20
)

// ReadSecretFile reads a password, token, CA, certificate or key file named
// by the setting key, within MaxSecretBytes, stopping when ctx is done (a
// FIFO that never gets a writer, a hung network file). Its errors name the
// setting and the path, never the contents.
func ReadSecretFile(ctx context.Context, key, path string) ([]byte, error) {
	data, err := ReadFileBounded(ctx, path, MaxSecretBytes, key, "is this the right file?")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	return data, nil
}

// TooLargeError is a file (or standard input) longer than its cap.
type TooLargeError struct {
	// Name is the file, as the user gave it ("-" or "standard input" for
	// stdin).
	Name string
	// What says what the file is ("receipt", "offsets file", ...).
	What string
	// Limit is the cap in bytes.
	Limit int64
	// Hint says what to do instead.
	Hint string
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("%s %s is larger than %s, the most kgroups reads from one", e.What, e.Name, FormatBytes(e.Limit))
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	return msg
}

// FormatBytes writes a cap such as 1<<20 as "1 MiB".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Bounded reads from r at most limit bytes and stops when ctx is done. Past
// limit it returns err (a *TooLargeError, typically) instead of more data.
// Each Read first checks ctx, so an endless source stops at the next read
// after a cancel; when r can block for good (a FIFO, a terminal, a pipe),
// the read runs in its own goroutine and a cancel returns at once, leaving
// that goroutine to finish whenever its read does.
type Bounded struct {
	ctx      context.Context
	r        io.Reader
	left     int64 // bytes allowed before tooLong; one more is read to tell "exactly limit" from "more"
	tooLong  error
	blocking bool
	pending  chan readResult // a read started in a goroutine and not yet collected
}

type readResult struct {
	buf []byte
	n   int
	err error
}

// NewBounded wraps r. tooLong is returned once more than limit bytes have
// been seen. A reader that is an *os.File which is not a regular file may
// block for good, so its reads are made cancellable.
func NewBounded(ctx context.Context, r io.Reader, limit int64, tooLong error) *Bounded {
	b := &Bounded{ctx: ctx, r: r, left: limit, tooLong: tooLong}
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			b.blocking = true
		}
	}
	return b
}

// Read implements io.Reader.
func (b *Bounded) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.left < 0 {
		return 0, b.tooLong
	}
	if len(p) == 0 {
		return 0, nil
	}
	// Read up to one byte past the limit, to know whether there is more.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.read(p)
	b.left -= int64(n)
	if b.left < 0 {
		// The byte past the limit is not handed out.
		return n - 1, b.tooLong
	}
	return n, err
}

func (b *Bounded) read(p []byte) (int, error) {
	if !b.blocking {
		return b.r.Read(p)
	}
	if b.pending == nil {
		ch := make(chan readResult, 1)
		buf := make([]byte, len(p))
		go func() {
			n, err := b.r.Read(buf)
			ch <- readResult{buf, n, err}
		}()
		b.pending = ch
	}
	select {
	case res := <-b.pending:
		b.pending = nil
		n := copy(p, res.buf[:res.n])
		if n < res.n {
			// p shrank since the read started: keep the rest for later.
			rest := res.buf[n:res.n]
			ch := make(chan readResult, 1)
			ch <- readResult{rest, len(rest), res.err}
			b.pending = ch
			return n, nil
		}
		return n, res.err
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	}
}

// ReadAllBounded reads r to its end through a Bounded reader.
func ReadAllBounded(ctx context.Context, r io.Reader, limit int64, tooLong error) ([]byte, error) {
	return io.ReadAll(NewBounded(ctx, r, limit, tooLong))
}

// OpenBounded opens the file at path for reading through a Bounded reader:
// at most limit bytes, stopping when ctx is done. A regular file already
// larger than limit is refused at once, without reading it; past limit the
// reader returns a *TooLargeError naming the file as what, with hint saying
// what to do. Errors opening the file are returned as os.Open gives them.
func OpenBounded(ctx context.Context, path string, limit int64, what, hint string) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := openCancellable(ctx, path)
	if err != nil {
		return nil, err
	}
	tooLarge := &TooLargeError{Name: path, What: what, Limit: limit, Hint: hint}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		_ = f.Close()
		return nil, tooLarge
	}
	return boundedFile{NewBounded(ctx, f, limit, tooLarge), f}, nil
}

// openCancellable opens path for reading, returning ctx's error if ctx is
// done first: opening a FIFO blocks until a writer opens its other end. A
// file opened after that is closed by the goroutine that opened it.
func openCancellable(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				_ = o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

type boundedFile struct {
	*Bounded
	f *os.File
}

func (b boundedFile) Close() error { return b.f.Close() }

// ReadFileBounded reads the file at path with OpenBounded. Read errors other
// than a *TooLargeError or ctx's own name the file.
func ReadFileBounded(ctx context.Context, path string, limit int64, what, hint string) ([]byte, error) {
	f, err := OpenBounded(ctx, path, limit, what, hint)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) || ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}
