package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// SecretCmdTimeout bounds password_cmd when the caller's context has no
// deadline, so a command waiting for input cannot hang kgroups. Connecting
// gives it the request timeout instead.
const SecretCmdTimeout = 30 * time.Second

// ResolvePassword returns the SASL password from whichever source is set:
// password, password_env, password_file (surrounding whitespace trimmed) or
// password_cmd (run with sh -c, stdout trimmed). It is called only when
// connecting, so a context that is never used never runs its command.
// Errors name the source but never contain the secret or the command's
// output, which could be the secret.
func (s SASLConfig) ResolvePassword(ctx context.Context) (string, error) {
	switch {
	case s.Password != "":
		return s.Password, nil
	case s.PasswordEnv != "":
		v, ok := os.LookupEnv(s.PasswordEnv)
		if !ok {
			return "", fmt.Errorf("sasl.password_env: environment variable %s is not set", s.PasswordEnv)
		}
		if v == "" {
			return "", fmt.Errorf("sasl.password_env: environment variable %s is empty", s.PasswordEnv)
		}
		return v, nil
	case s.PasswordFile != "":
		return readSecretFile(ctx, "sasl.password_file", s.PasswordFile)
	case s.PasswordCmd != "":
		if s.unsafeCmd != "" {
			return "", fmt.Errorf("sasl.password_cmd: refused to run: %s", s.unsafeCmd)
		}
		return runSecretCmd(ctx, "sasl.password_cmd", s.PasswordCmd)
	}
	return "", errors.New("sasl: no password set (set one of password, password_env, password_file, password_cmd)")
}

// ResolveToken returns the OAUTHBEARER token from token or token_file
// (whitespace trimmed). Like ResolvePassword, errors never contain it.
func (s SASLConfig) ResolveToken(ctx context.Context) (string, error) {
	switch {
	case s.Token != "":
		return s.Token, nil
	case s.TokenFile != "":
		return readSecretFile(ctx, "sasl.token_file", s.TokenFile)
	}
	return "", errors.New("sasl: no token set (set token or token_file)")
}

func readSecretFile(ctx context.Context, key, path string) (string, error) {
	data, err := ReadSecretFile(ctx, key, path)
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(data))
	if v == "" {
		return "", fmt.Errorf("%s: %s is empty", key, path)
	}
	return v, nil
}

func runSecretCmd(ctx context.Context, key, command string) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, SecretCmdTimeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	var out bytes.Buffer
	cmd.Stdout = &out
	// stdin and stderr stay unconnected: kgroups may own the terminal, and
	// stderr may echo the secret.
	ownProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("%s: command did not finish in time and was killed: %w", key, ctx.Err())
		}
		return "", fmt.Errorf("%s: command stopped: %w", key, ctx.Err())
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("%s: command failed (%s); its output is not shown because it may hold the secret: run it yourself to see why", key, ee.ProcessState)
		}
		return "", fmt.Errorf("%s: run command: %w", key, err)
	}
	v := strings.TrimSpace(out.String())
	if v == "" {
		return "", fmt.Errorf("%s: command printed nothing", key)
	}
	return v, nil
}
