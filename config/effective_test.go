package config

import (
	"errors"
	"testing"
)

func TestFromFlags(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New(`--brokers: bad broker address "x"`), true},
		{errors.Join(errors.New("--brokers: bad"), errors.New("--timeout: must be positive")), true},
		{errors.Join(errors.New("--brokers: bad"), errors.New("KGROUPS_TIMEOUT: bad")), false},
		{errors.New("config /f.yaml: contexts[p].brokers: missing"), false},
		{errors.New("KGROUPS_CONTEXT: unknown context"), false},
	} {
		if got := FromFlags(tc.err); got != tc.want {
			t.Errorf("FromFlags(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
