package config

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// endless is an io.Reader that never ends; it cancels its context after a
// few reads, as Ctrl+C would in the middle of reading /dev/urandom.
type endless struct {
	reads  int
	cancel context.CancelFunc
}

func (e *endless) Read(p []byte) (int, error) {
	e.reads++
	if e.reads == 3 && e.cancel != nil {
		e.cancel()
	}
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestBoundedStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &endless{cancel: cancel}
	_, err := io.ReadAll(NewBounded(ctx, src, 1<<62, errors.New("too large")))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("read of an endless reader after cancel: %v, want context.Canceled", err)
	}
	if src.reads != 3 {
		t.Fatalf("%d reads after the cancel at read 3; want none", src.reads-3)
	}
}

// A read that blocks for good (a FIFO, a terminal with nothing typed) still
// returns when the context is cancelled.
func TestBoundedBlockedReadIsCancellable(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(NewBounded(ctx, r, 100, errors.New("too large")))
		done <- err
	}()
	if _, err := w.Write([]byte("some")); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked read after cancel: %v, want context.Canceled", err)
	}
}

func TestBoundedCap(t *testing.T) {
	tooLarge := errors.New("too large")
	for _, tt := range []struct {
		n       int
		wantErr error
	}{{9, nil}, {10, nil}, {11, tooLarge}, {100000, tooLarge}} {
		data, err := io.ReadAll(NewBounded(context.Background(), strings.NewReader(strings.Repeat("a", tt.n)), 10, tooLarge))
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("%d bytes, cap 10: %v, want %v", tt.n, err, tt.wantErr)
		}
		if len(data) > 10 {
			t.Errorf("%d bytes, cap 10: read %d", tt.n, len(data))
		}
	}
}

func TestReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if data, err := ReadFileBounded(ctx, small, 10, "receipt", "hint"); err != nil || string(data) != "0123456789" {
		t.Fatalf("file at the cap: %q, %v", data, err)
	}
	_, err := ReadFileBounded(ctx, small, 9, "receipt", "is this the right file?")
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("file over the cap: %v, want a *TooLargeError", err)
	}
	want := "receipt " + small + " is larger than 9 bytes, the most kgroups reads from one: is this the right file?"
	if err.Error() != want {
		t.Fatalf("error %q\nwant %q", err, want)
	}
	// A device is refused once the cap is passed, not read to the end.
	if _, err := ReadFileBounded(ctx, "/dev/zero", MaxConfigBytes, "configuration file", ""); !errors.As(err, &tl) || tl.Limit != MaxConfigBytes {
		t.Fatalf("/dev/zero: %v, want a *TooLargeError at %d", err, MaxConfigBytes)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ReadFileBounded(cancelled, "/dev/zero", MaxConfigBytes, "configuration file", ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v, want context.Canceled", err)
	}
}

func TestLoadRefusesAHugeConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, MaxConfigBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, true)
	want := "configuration file " + path + " is larger than 1 MiB, the most kgroups reads from one"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Load of a 1 MiB + 1 file: %v\nwant %s...", err, want)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{MaxConfigBytes: "1 MiB", MaxReceiptBytes: "16 MiB", MaxCSVBytes: "256 MiB", 2048: "2 KiB", 9: "9 bytes"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// Opening a FIFO blocks until a writer comes; a cancel ends the wait.
func TestOpenBoundedFIFOIsCancellable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ReadFileBounded(ctx, path, MaxConfigBytes, "configuration file", "")
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("read of a FIFO without a writer after cancel: %v, want context.Canceled", err)
	}
	// Let the opening goroutine finish.
	if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		_ = w.Close()
	}
}

// TestSecretFilesAreCapped: a password, token, CA, certificate or key file
// that is a device or far too large is refused by its setting's name,
// without being read to the end.
func TestSecretFilesAreCapped(t *testing.T) {
	big := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxSecretBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", big} {
		_, err := ReadSecretFile(context.Background(), "tls.ca_file", path)
		var tl *TooLargeError
		if !errors.As(err, &tl) || !strings.HasPrefix(err.Error(), "tls.ca_file: ") {
			t.Errorf("ReadSecretFile(%s) = %v, want a TooLargeError naming tls.ca_file", path, err)
		}
	}
	s := SASLConfig{Mechanism: "PLAIN", Username: "u", PasswordFile: "/dev/zero"}
	if _, err := s.ResolvePassword(context.Background()); err == nil || !strings.HasPrefix(err.Error(), "sasl.password_file: ") {
		t.Errorf("password_file /dev/zero: %v", err)
	}
}

// TestSecretFileReadStopsWithTheRun: a password, token, CA, certificate or
// key file that is a FIFO nobody writes to would block its read for good;
// the read stops when the run's context is cancelled (Ctrl+C, SIGTERM).
func TestSecretFileReadStopsWithTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	reads := map[string]func(context.Context) error{
		"ReadSecretFile": func(ctx context.Context) error {
			_, err := ReadSecretFile(ctx, "tls.key_file", path)
			return err
		},
		"password_file": func(ctx context.Context) error {
			_, err := SASLConfig{Mechanism: "PLAIN", Username: "u", PasswordFile: path}.ResolvePassword(ctx)
			return err
		},
		"token_file": func(ctx context.Context) error {
			_, err := SASLConfig{Mechanism: "OAUTHBEARER", TokenFile: path}.ResolveToken(ctx)
			return err
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			started := make(chan struct{})
			go func() {
				close(started)
				done <- read(ctx)
			}()
			<-started
			cancel()
			// Without the run's context the read waits for a writer
			// that never comes, and this receive never returns.
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("read of a FIFO without a writer after cancel: %v, want context.Canceled", err)
			}
		})
	}
	// Let the opening goroutines finish.
	for range reads {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = w.Close()
		}
	}
}
