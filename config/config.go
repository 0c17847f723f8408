package config

import (
	"fmt"
	"strings"
	"time"
)

// Defaults applied to every context, so a context needs nothing but brokers.
const (
	DefaultClientID       = "kgroups"
	DefaultRequestTimeout = 10 * time.Second
	DefaultRefresh        = 5 * time.Second
)

// AdHocContext names the context built from flags and environment alone, when
// no context from the file is selected.
const AdHocContext = "(ad-hoc)"

// SASL mechanisms kgroups can authenticate with.
const (
	MechanismPlain       = "PLAIN"
	MechanismScramSHA256 = "SCRAM-SHA-256"
	MechanismScramSHA512 = "SCRAM-SHA-512"
	MechanismOAuthBearer = "OAUTHBEARER"
	MechanismAWSMSKIAM   = "AWS_MSK_IAM"
)

// Mechanisms lists the accepted SASL mechanisms, in the order error messages
// show them.
var Mechanisms = []string{MechanismPlain, MechanismScramSHA256, MechanismScramSHA512, MechanismOAuthBearer, MechanismAWSMSKIAM}

// Config is the whole configuration file: every context and which one is
// current.
type Config struct {
	// Path is the configuration file's path, whether or not it exists;
	// empty for a configuration parsed from memory.
	Path string
	// Found reports whether the file existed.
	Found          bool
	CurrentContext string
	// Contexts are the file's named clusters, in file order.
	Contexts []Cluster
	// Warnings are about the file's permissions: who else can change it,
	// or read the secret it holds. The command line prints them once on
	// stderr.
	Warnings []string
}

// Cluster is everything needed to reach and use one cluster: one context of
// the file, or the ad-hoc one built from flags and the environment. The zero
// values of the durations and client id mean "default" until Effective
// fills them in. Every field is a setting of Settings.
type Cluster struct {
	Name           string
	Brokers        []string
	TLS            TLSConfig
	SASL           SASLConfig
	ClientID       string
	RequestTimeout time.Duration
	Refresh        time.Duration
	// ReadOnly disables every write action (reset, delete, remove members).
	ReadOnly bool
	// Protected keeps writes possible but makes each one ask for the name
	// of the group it changes to be typed as confirmation.
	Protected bool
	// Serve is how `kgroups serve` exports the context's groups.
	Serve ServeConfig
	// Groups chooses the groups `kgroups serve` exports and `kgroups
	// health --all-groups` judges: one definition for both.
	Groups GroupsConfig

	// origin maps a setting key ("brokers", "sasl.mechanism", ...) to where
	// its value came from, so that validation errors name the file and key,
	// the flag or the environment variable. The key "" holds the prefix of
	// the file context ("config FILE: contexts[NAME].") for keys the file
	// did not set.
	origin map[string]Source
	// notes are what the user should hear about how the context was
	// resolved (an override that could not loosen a guard).
	notes []string
	// named reports a context chosen by --context or KGROUPS_CONTEXT,
	// not by the file's current-context.
	named bool
	// namedByFlag reports a context chosen by the --context flag.
	namedByFlag bool
	// configFlag is the file given with --config, for suggestions.
	configFlag string
	// overridden reports brokers that are not the context's: given by
	// -b, KGROUPS_BROKERS or a receipt.
	overridden bool
	// withheld reports that the context's own credentials were left out
	// because the brokers are not the context's (see Effective).
	withheld bool
}

// ContextNamed reports whether the context was chosen by --context or
// KGROUPS_CONTEXT rather than by the file's current-context.
func (c Cluster) ContextNamed() bool { return c.named }

// BrokersGiven reports whether the brokers came from -b/--brokers or
// KGROUPS_BROKERS rather than from the context.
func (c Cluster) BrokersGiven() bool {
	k := c.source("brokers").Kind
	return k == SourceFlag || k == SourceEnv
}

// ConfigFlag is the configuration file the context came from when it
// was given with --config ("" otherwise): a suggested command that names
// the context names the file too.
func (c Cluster) ConfigFlag() string { return c.configFlag }

// BrokersOverridden reports whether the brokers are not the context's
// own list: given by -b, KGROUPS_BROKERS, or taken from a receipt.
func (c Cluster) BrokersOverridden() bool { return c.overridden }

// CredentialsWithheld reports whether the context's own credentials (its
// SASL settings, its TLS client certificate) were left out because the
// brokers are not the context's.
func (c Cluster) CredentialsWithheld() bool { return c.withheld }

// Notes are messages for the user about how the context was resolved, such
// as a --read-only=false that could not loosen a context the file makes
// read-only. The command line prints them once on stderr.
func (c Cluster) Notes() []string { return c.notes }

// HowToWrite says how to be allowed to write when the guard key
// ("read_only") is on, given where it was turned on: a file's guard is
// edited in the file (a flag or variable cannot loosen it), a flag is left
// out, a variable unset; or another context is used.
func (c Cluster) HowToWrite(key string) string {
	src := c.source(key)
	switch src.Kind {
	case SourceFlag:
		return "leave out " + src.Name + " or use another context"
	case SourceEnv:
		return "unset " + src.Name + " or use another context"
	}
	return fmt.Sprintf("edit the file (%s: false; a flag or variable cannot loosen it) or use another context", src.Name)
}

// TLSConfig says how to encrypt the connection and, for mTLS, which client
// certificate to present.
type TLSConfig struct {
	Enabled bool
	// CAFile is a PEM bundle of the CAs to trust instead of the system pool.
	CAFile string
	// CertFile and KeyFile are the PEM client certificate and key (mTLS);
	// one without the other is an error.
	CertFile string
	KeyFile  string
	// ServerName overrides the name the broker certificates are verified
	// against (by default the host being dialed).
	ServerName         string
	InsecureSkipVerify bool
}

// ServeConfig is the serve section: what `kgroups serve` listens on and
// which groups it exports how finely.
type ServeConfig struct {
	// Listen is host:port.
	Listen string
	// Granularity is group, topic or partition.
	Granularity string
	// MaxSeries is the series cap, a whole number ("0": none).
	MaxSeries string
}

// GroupsConfig is the groups section: which groups `kgroups serve`
// exports and `kgroups health --all-groups` judges. The serve section's
// allow_groups, deny_groups and skip_empty are its older names.
type GroupsConfig struct {
	// Allow and Deny are regular expressions matched against whole
	// group ids: a group is taken when one of Allow matches (any group
	// without Allow) and none of Deny does.
	Allow, Deny []string
	// SkipEmpty leaves out Empty and Dead groups.
	SkipEmpty bool
}

// SASLConfig says how to authenticate. Passwords and tokens can be given
// inline or, preferably, by reference (an environment variable, a file or a
// command); references are resolved only when connecting.
type SASLConfig struct {
	// Mechanism is one of Mechanisms, or empty for no SASL.
	Mechanism    string
	Username     string
	Password     string
	PasswordEnv  string
	PasswordFile string
	PasswordCmd  string
	// Token and TokenFile are the OAUTHBEARER token, inline or in a file.
	Token     string
	TokenFile string

	// unsafeCmd, when not empty, says why PasswordCmd may not run: who
	// else can change the file it came from (Load sets it).
	unsafeCmd string
}

// Context finds a context of the file by name.
func (c *Config) Context(name string) (Cluster, bool) {
	for _, x := range c.Contexts {
		if x.Name == name {
			return x, true
		}
	}
	return Cluster{}, false
}

// Names returns the context names in file order.
func (c *Config) Names() []string {
	names := make([]string, len(c.Contexts))
	for i, x := range c.Contexts {
		names[i] = x.Name
	}
	return names
}

func (c *Cluster) setOrigin(key string, where Source) {
	if c.origin == nil {
		c.origin = make(map[string]Source)
	}
	c.origin[key] = where
}

// withDefaults fills the zero values of the settings that have defaults.
func (c Cluster) withDefaults() Cluster {
	for i := range Settings {
		s := &Settings[i]
		if s.Default == "" || s.field == nil || !s.isZero(&c) {
			continue
		}
		// The defaults are constants, checked by the tests.
		_ = s.set(&c, s.Default)
	}
	return c
}

// normalize canonicalises values that have more than one spelling.
func (c Cluster) normalize() Cluster {
	c.SASL.Mechanism = strings.ToUpper(strings.TrimSpace(c.SASL.Mechanism))
	if c.TLS.CAFile != "" || c.TLS.CertFile != "" || c.TLS.KeyFile != "" || c.TLS.ServerName != "" || c.TLS.InsecureSkipVerify {
		c.TLS.Enabled = true
	}
	return c
}

// clone copies the context deeply enough that changing the copy's slices or
// origins leaves the original alone.
func (c Cluster) clone() Cluster {
	c.Brokers = append([]string(nil), c.Brokers...)
	c.Groups.Allow = append([]string(nil), c.Groups.Allow...)
	c.Groups.Deny = append([]string(nil), c.Groups.Deny...)
	if c.origin != nil {
		o := make(map[string]Source, len(c.origin))
		for k, v := range c.origin {
			o[k] = v
		}
		c.origin = o
	}
	return c
}
