package kafka

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kgroups/kgroups/config"
)

// TestTLSFilesReadWithinTheRun: a CA, certificate or key file that is a
// FIFO nobody writes to stops being read when the run is cancelled, and
// the error names the setting.
func TestTLSFilesReadWithinTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		key string
		cfg config.TLSConfig
	}{
		{"tls.ca_file", config.TLSConfig{Enabled: true, CAFile: path}},
		{"tls.cert_file", config.TLSConfig{Enabled: true, CertFile: path, KeyFile: path}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := tlsConfig(ctx, tc.cfg, nil)
			done <- err
		}()
		cancel()
		err := <-done
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s a FIFO without a writer, cancelled: %v, want context.Canceled naming %s", tc.key, err, tc.key)
		}
	}
	for range 2 {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = w.Close()
		}
	}
}
