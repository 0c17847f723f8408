package config

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Mask replaces a secret for display.
const Mask = "****"

// Masked returns a copy of the context that is safe to print: the inline
// password and token become "****". References (password_env,
// password_file, password_cmd, token_file) stay, since they say where the
// secret is without being it.
func (c Context) Masked() Context {
	c = c.clone()
	if c.SASL.Password != "" {
		c.SASL.Password = Mask
	}
	if c.SASL.Token != "" {
		c.SASL.Token = Mask
	}
	return c
}

// View renders the configuration as YAML in the file's own format, with
// secrets masked. When effective is non-nil it is the context in use: it
// becomes current-context and replaces the file's context of the same name
// (or is added, for an ad-hoc context), so the output shows what kgroups
// will actually do after flags, environment and defaults. Other contexts
// are shown with defaults filled in.
func (c *Config) View(effective *Context) ([]byte, error) {
	out := yamlConfig{CurrentContext: c.CurrentContext}
	replaced := false
	for _, x := range c.Contexts {
		if effective != nil && x.Name == effective.Name {
			x, replaced = *effective, true
		} else {
			x = x.withDefaults().normalize()
		}
		out.Contexts = append(out.Contexts, toYAML(x.Masked()))
	}
	if effective != nil {
		out.CurrentContext = effective.Name
		if !replaced {
			out.Contexts = append(out.Contexts, toYAML(effective.Masked()))
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("render config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render config: %w", err)
	}
	return buf.Bytes(), nil
}

type yamlConfig struct {
	CurrentContext string        `yaml:"current-context,omitempty"`
	Contexts       []yamlContext `yaml:"contexts"`
}

type yamlContext struct {
	Name           string    `yaml:"name"`
	Brokers        []string  `yaml:"brokers"`
	TLS            *yamlTLS  `yaml:"tls,omitempty"`
	SASL           *yamlSASL `yaml:"sasl,omitempty"`
	ClientID       string    `yaml:"client_id"`
	RequestTimeout string    `yaml:"request_timeout"`
	Refresh        string    `yaml:"refresh"`
	ReadOnly       bool      `yaml:"read_only"`
	Protected      bool      `yaml:"protected"`
}

type yamlTLS struct {
	Enabled            bool   `yaml:"enabled"`
	CAFile             string `yaml:"ca_file,omitempty"`
	CertFile           string `yaml:"cert_file,omitempty"`
	KeyFile            string `yaml:"key_file,omitempty"`
	ServerName         string `yaml:"server_name,omitempty"`
	InsecureSkipVerify bool   `yaml:"insecure_skip_verify,omitempty"`
}

type yamlSASL struct {
	Mechanism    string `yaml:"mechanism"`
	Username     string `yaml:"username,omitempty"`
	Password     string `yaml:"password,omitempty"`
	PasswordEnv  string `yaml:"password_env,omitempty"`
	PasswordFile string `yaml:"password_file,omitempty"`
	PasswordCmd  string `yaml:"password_cmd,omitempty"`
	Token        string `yaml:"token,omitempty"`
	TokenFile    string `yaml:"token_file,omitempty"`
}

func toYAML(c Context) yamlContext {
	y := yamlContext{
		Name:      c.Name,
		Brokers:   c.Brokers,
		ClientID:  c.ClientID,
		ReadOnly:  c.ReadOnly,
		Protected: c.Protected,
	}
	if c.RequestTimeout > 0 {
		y.RequestTimeout = c.RequestTimeout.String()
	}
	if c.Refresh > 0 {
		y.Refresh = c.Refresh.String()
	}
	if c.TLS != (TLSConfig{}) {
		t := yamlTLS(c.TLS)
		y.TLS = &t
	}
	if c.SASL != (SASLConfig{}) {
		s := yamlSASL(c.SASL)
		y.SASL = &s
	}
	return y
}
