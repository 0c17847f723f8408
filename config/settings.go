package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is how a setting's text is parsed.
type Kind int

// Setting kinds.
const (
	KindString Kind = iota
	KindList        // comma-separated
	KindBool
	KindDuration
)

// Setting ties one configurable value to its flag and environment variable,
// so that the command line, the environment and the file are described in one
// place and errors can name whichever one supplied a bad value.
type Setting struct {
	// Key is the context key ("brokers", "tls.ca_file", ...), or
	// KeyConfig / KeyContext for the two that choose the file and context.
	Key string
	// Flag is the long flag name, empty for settings that must not be
	// flags (a password on the command line shows up in ps).
	Flag  string
	Short string
	Env   string
	Kind  Kind
	Usage string
}

// Keys of the two settings that are not context fields.
const (
	KeyConfig  = "config"
	KeyContext = "context"
)

// Settings lists every flag- and environment-configurable setting.
var Settings = []Setting{
	{Key: KeyConfig, Flag: "config", Env: "KGROUPS_CONFIG", Usage: "configuration file (default $XDG_CONFIG_HOME/kgroups/config.yaml)"},
	{Key: KeyContext, Flag: "context", Env: "KGROUPS_CONTEXT", Usage: "context to use (default: current-context from the file)"},
	{Key: "brokers", Flag: "brokers", Short: "b", Env: "KGROUPS_BROKERS", Kind: KindList, Usage: "bootstrap brokers host:port,... (works without a configuration file)"},
	{Key: "client_id", Flag: "client-id", Env: "KGROUPS_CLIENT_ID", Usage: "client id sent to the brokers (default \"kgroups\")"},
	{Key: "request_timeout", Flag: "timeout", Env: "KGROUPS_TIMEOUT", Kind: KindDuration, Usage: "request timeout (default 10s)"},
	{Key: "refresh", Flag: "refresh", Env: "KGROUPS_REFRESH", Kind: KindDuration, Usage: "refresh interval of the live view (default 5s)"},
	{Key: "read_only", Flag: "read-only", Env: "KGROUPS_READ_ONLY", Kind: KindBool, Usage: "disable every write action"},
	{Key: "protected", Flag: "protected", Env: "KGROUPS_PROTECTED", Kind: KindBool, Usage: "make every write ask for the group name to be typed as confirmation"},
	{Key: "tls.enabled", Flag: "tls", Env: "KGROUPS_TLS", Kind: KindBool, Usage: "connect with TLS"},
	{Key: "tls.ca_file", Flag: "tls-ca-file", Env: "KGROUPS_TLS_CA_FILE", Usage: "PEM file of CAs to trust (implies --tls)"},
	{Key: "tls.cert_file", Flag: "tls-cert-file", Env: "KGROUPS_TLS_CERT_FILE", Usage: "PEM client certificate for mTLS (implies --tls)"},
	{Key: "tls.key_file", Flag: "tls-key-file", Env: "KGROUPS_TLS_KEY_FILE", Usage: "PEM client key for mTLS (implies --tls)"},
	{Key: "tls.server_name", Flag: "tls-server-name", Env: "KGROUPS_TLS_SERVER_NAME", Usage: "name to verify broker certificates against (implies --tls)"},
	{Key: "tls.insecure_skip_verify", Flag: "tls-insecure-skip-verify", Env: "KGROUPS_TLS_INSECURE_SKIP_VERIFY", Kind: KindBool, Usage: "do not verify broker certificates (implies --tls)"},
	{Key: "sasl.mechanism", Flag: "sasl-mechanism", Env: "KGROUPS_SASL_MECHANISM", Usage: "SASL mechanism: " + strings.Join(Mechanisms, ", ")},
	{Key: "sasl.username", Flag: "sasl-username", Env: "KGROUPS_SASL_USERNAME", Usage: "SASL username"},
	{Key: "sasl.password", Env: "KGROUPS_SASL_PASSWORD", Usage: "SASL password"},
	{Key: "sasl.password_file", Flag: "sasl-password-file", Env: "KGROUPS_SASL_PASSWORD_FILE", Usage: "file holding the SASL password"},
	{Key: "sasl.token_file", Flag: "sasl-token-file", Env: "KGROUPS_SASL_TOKEN_FILE", Usage: "file holding the OAUTHBEARER token"},
}

// Override is one setting supplied by a flag or the environment.
type Override struct {
	Key   string
	Value string
	// Source names where it came from ("--timeout", "KGROUPS_TIMEOUT") for
	// error messages.
	Source string
}

// passwordKeys and tokenKeys are alternatives for one secret: an override of
// any of them replaces whichever the file set, rather than conflicting.
var (
	passwordKeys = []string{"sasl.password", "sasl.password_env", "sasl.password_file", "sasl.password_cmd"}
	tokenKeys    = []string{"sasl.token", "sasl.token_file"}
)

// apply sets one override on the context.
func (c *Context) apply(o Override) error {
	bad := func(err error) error {
		if secretKey(o.Key) {
			return fmt.Errorf("%s: invalid value", o.Source)
		}
		return fmt.Errorf("%s: %w", o.Source, err)
	}
	boolean := func() (bool, error) {
		b, err := strconv.ParseBool(strings.TrimSpace(o.Value))
		if err != nil {
			return false, bad(fmt.Errorf("want true or false, got %q", o.Value))
		}
		return b, nil
	}
	var err error
	switch o.Key {
	case "brokers":
		c.Brokers = splitList(o.Value)
	case "client_id":
		c.ClientID = o.Value
	case "request_timeout":
		if c.RequestTimeout, err = parseDuration(o.Value); err != nil {
			return bad(err)
		}
	case "refresh":
		if c.Refresh, err = parseDuration(o.Value); err != nil {
			return bad(err)
		}
	case "read_only":
		c.ReadOnly, err = boolean()
	case "protected":
		c.Protected, err = boolean()
	case "tls.enabled":
		c.TLS.Enabled, err = boolean()
	case "tls.ca_file":
		c.TLS.CAFile = o.Value
	case "tls.cert_file":
		c.TLS.CertFile = o.Value
	case "tls.key_file":
		c.TLS.KeyFile = o.Value
	case "tls.server_name":
		c.TLS.ServerName = o.Value
	case "tls.insecure_skip_verify":
		c.TLS.InsecureSkipVerify, err = boolean()
	case "sasl.mechanism":
		c.SASL.Mechanism = o.Value
	case "sasl.username":
		c.SASL.Username = o.Value
	case "sasl.password", "sasl.password_env", "sasl.password_file", "sasl.password_cmd":
		c.SASL.Password, c.SASL.PasswordEnv, c.SASL.PasswordFile, c.SASL.PasswordCmd = "", "", "", ""
		for _, k := range passwordKeys {
			delete(c.origin, k)
		}
		switch o.Key {
		case "sasl.password":
			c.SASL.Password = o.Value
		case "sasl.password_env":
			c.SASL.PasswordEnv = o.Value
		case "sasl.password_file":
			c.SASL.PasswordFile = o.Value
		case "sasl.password_cmd":
			c.SASL.PasswordCmd = o.Value
		}
	case "sasl.token", "sasl.token_file":
		c.SASL.Token, c.SASL.TokenFile = "", ""
		for _, k := range tokenKeys {
			delete(c.origin, k)
		}
		if o.Key == "sasl.token" {
			c.SASL.Token = o.Value
		} else {
			c.SASL.TokenFile = o.Value
		}
	default:
		return fmt.Errorf("%s: unknown setting %q", o.Source, o.Key)
	}
	if err != nil {
		return err
	}
	c.setOrigin(o.Key, o.Source)
	return nil
}

func secretKey(k string) bool { return k == "sasl.password" || k == "sasl.token" }
