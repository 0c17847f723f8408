package config

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Selection says which context to use and what to override in it; the
// command line builds it from flags and the environment (see CommandLine).
type Selection struct {
	// Context is the context name asked for, empty for current-context.
	Context string
	// ContextSource is where Context came from (--context,
	// KGROUPS_CONTEXT), for messages and to tell a usage mistake from a
	// configuration one.
	ContextSource Source
	Overrides     []Override
	// Config is the configuration file given with --config ("" when
	// none was, or it came from KGROUPS_CONFIG), so that a suggested
	// command naming a context names its file too.
	Config string
}

// Effective resolves the context kgroups will use: the selected (or current)
// context from the file, or an ad-hoc one when none is selected, with
// defaults filled in and overrides applied, then validated. Secrets are not
// resolved here (see SASLConfig.ResolvePassword). A problem with a setting
// is a *SettingError (several are joined with errors.Join), naming the
// source of the bad value.
func (c *Config) Effective(sel Selection) (Cluster, error) {
	name, source := sel.Context, sel.ContextSource
	if name == "" && c.CurrentContext != "" {
		name, source = c.CurrentContext, Source{Kind: SourceFile, Name: fmt.Sprintf("config %s: current-context", c.Path)}
	}
	var cl Cluster
	if name != "" {
		found, ok := c.Context(name)
		if !ok {
			where := ""
			if c.Path != "" {
				where = " in " + c.Path
			}
			return Cluster{}, &SettingError{Key: KeyContext, Source: source, Msg: fmt.Sprintf("unknown context %q%s (%s)", name, where, knownList(c.Names()))}
		}
		cl = found.clone()
		cl.setOrigin("", Source{Kind: SourceFile, Name: fmt.Sprintf("config %s: contexts[%s].", c.Path, name)})
	} else {
		cl = Cluster{Name: AdHocContext}
		if !hasOverride(sel.Overrides, "brokers") {
			return Cluster{}, c.noContextError()
		}
	}
	cl = cl.withDefaults()
	own := cl.Brokers
	for _, o := range sel.Overrides {
		if err := cl.apply(o); err != nil {
			return Cluster{}, err
		}
	}
	if name != "" {
		cl.named = sel.Context != ""
		cl.namedByFlag = sel.Context != "" && sel.ContextSource.Kind == SourceFlag
		cl.configFlag = sel.Config
		cl.overridden = hasOverride(sel.Overrides, "brokers")
		cl.bindCredentials(own, hasOverride(sel.Overrides, "brokers"))
	}
	cl = cl.normalize()
	if err := cl.Validate(); err != nil {
		return Cluster{}, err
	}
	return cl, nil
}

// bindCredentials keeps the context's credentials for the context's own
// brokers (own, as the file lists them). A context's SASL settings and
// TLS client certificate prove who the user is to that cluster: they are
// sent to other brokers only when the user typed both on the command line
// (--context NAME with -b HOSTS, for a tunnel or a broker the file does
// not list). -b with the file's current-context or KGROUPS_CONTEXT (both
// set long before, and easily forgotten), KGROUPS_BROKERS, or brokers
// from anywhere else (a receipt), get no credentials from the file; those
// given as flags or variables stay.
func (c *Cluster) bindCredentials(own []string, overridden bool) {
	from := c.source("brokers")
	if !overridden || brokersWithin(c.Brokers, own) {
		return
	}
	if c.namedByFlag && from.Kind == SourceFlag {
		return
	}
	var dropped []string
	for i := range Settings {
		s := &Settings[i]
		if s.field == nil || !credentialSetting(s.Key) || s.isZero(c) || c.source(s.Key).Kind != SourceFile {
			continue
		}
		s.clear(c)
		dropped = append(dropped, s.Key)
	}
	if len(dropped) == 0 {
		return
	}
	if c.SASL.Mechanism == "" {
		// The rest of a SASL login without its mechanism is no login.
		for i := range Settings {
			if s := &Settings[i]; s.field != nil && strings.HasPrefix(s.Key, "sasl.") && !s.isZero(c) {
				s.clear(c)
				dropped = append(dropped, s.Key)
			}
		}
	}
	c.withheld = true
	how := fmt.Sprintf("to send them there, type both: --context %s -b %s", c.Name, strings.Join(c.Brokers, ","))
	if from.Kind != SourceFlag && from.Kind != SourceEnv {
		how = fmt.Sprintf("to use them, name the cluster with --context %s or -b", c.Name)
	}
	c.notes = append(c.notes, fmt.Sprintf("the brokers %s (%s) are not context %s's: its credentials (%s) are not sent to them; %s",
		strings.Join(c.Brokers, ","), from.Name, c.Name, strings.Join(dropped, ", "), how))
}

// credentialSetting reports the settings that prove who the user is.
func credentialSetting(key string) bool {
	return strings.HasPrefix(key, "sasl.") || key == "tls.cert_file" || key == "tls.key_file"
}

// brokersWithin reports whether every broker of got is one of own (host
// names compared without case).
func brokersWithin(got, own []string) bool {
	if len(got) == 0 {
		return true
	}
	for _, g := range got {
		found := false
		for _, o := range own {
			if strings.EqualFold(strings.TrimSpace(g), strings.TrimSpace(o)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ErrNoContext is returned (wrapped) by Effective when neither a context nor
// brokers were given, so callers that can work without one (showing the
// file) can tell it from a real mistake.
var ErrNoContext = errors.New("no context selected")

type noContextError struct{ msg string }

func (e noContextError) Error() string { return e.msg }
func (e noContextError) Unwrap() error { return ErrNoContext }

func (c *Config) noContextError() error {
	hint := "pass -b/--brokers host:port,... or set KGROUPS_BROKERS"
	if len(c.Contexts) > 0 {
		return noContextError{fmt.Sprintf("no context selected: set current-context in %s, pass --context NAME (%s), or %s", c.Path, knownList(c.Names()), hint)}
	}
	if c.Path != "" {
		return noContextError{fmt.Sprintf("no brokers: %s, or define a context in %s", hint, c.Path)}
	}
	return noContextError{fmt.Sprintf("no brokers: %s, or define a context in the configuration file (see 'kgroups config --help')", hint)}
}

func hasOverride(os []Override, key string) bool {
	for _, o := range os {
		if o.Key == key {
			return true
		}
	}
	return false
}

// Where says where a setting of the context came from ("config FILE:
// contexts[NAME].KEY", a flag like "--brokers", or an environment variable),
// so that messages about a setting tell the user what to edit.
func (c Cluster) Where(key string) string { return c.source(key).Name }

// FromFlag reports whether the setting key was given as a command-line
// flag.
func (c Cluster) FromFlag(key string) bool { return c.source(key).Kind == SourceFlag }

// source is where the setting key came from; for one given nowhere, its
// name says how it can be given.
func (c Cluster) source(key string) Source {
	if w, ok := c.origin[key]; ok {
		return w
	}
	if base, ok := c.origin[""]; ok {
		return Source{Kind: SourceFile, Name: base.Name + key}
	}
	// Not from a file: say how the setting can be given.
	if s, ok := Lookup(key); ok {
		switch {
		case s.Flag != "" && s.Env != "":
			return Source{Name: fmt.Sprintf("%s (--%s or %s)", key, s.Flag, s.Env)}
		case s.Env != "":
			return Source{Name: fmt.Sprintf("%s (%s)", key, s.Env)}
		}
	}
	return Source{Name: key}
}

// Validate checks the context's settings for mistakes that would otherwise
// surface later as a confusing connection failure. Errors name where the bad
// setting came from and what is accepted; they never include a secret.
func (c Cluster) Validate() error {
	var errs []error
	add := func(key, format string, args ...any) {
		errs = append(errs, &SettingError{Key: key, Source: c.source(key), Msg: fmt.Sprintf(format, args...)})
	}
	for i := range Settings {
		s := &Settings[i]
		if s.check == nil {
			continue
		}
		for _, msg := range s.check(s.field(&c)) {
			add(s.Key, "%s", msg)
		}
	}
	if (c.TLS.CertFile == "") != (c.TLS.KeyFile == "") {
		if c.TLS.CertFile != "" {
			add("tls.cert_file", "set without tls.key_file: mTLS needs both the certificate and its key")
		} else {
			add("tls.key_file", "set without tls.cert_file: mTLS needs both the certificate and its key")
		}
	}
	c.validateSASL(add)
	return errors.Join(errs...)
}

func (c Cluster) validateSASL(add func(key, format string, args ...any)) {
	s := c.SASL
	passwords := s.passwordSources()
	if s.Mechanism == "" {
		switch {
		case s.Username != "":
			add("sasl.username", "set but sasl.mechanism is empty (accepted: %s)", strings.Join(Mechanisms, ", "))
		case len(passwords) > 0:
			add(passwords[0], "set but sasl.mechanism is empty (accepted: %s)", strings.Join(Mechanisms, ", "))
		case s.Token != "" || s.TokenFile != "":
			add("sasl.token", "set but sasl.mechanism is empty (accepted: %s)", strings.Join(Mechanisms, ", "))
		}
		return
	}
	switch s.Mechanism {
	case MechanismPlain, MechanismScramSHA256, MechanismScramSHA512:
		if s.Username == "" {
			add("sasl.username", "missing: %s needs a username", s.Mechanism)
		}
		switch len(passwords) {
		case 0:
			add("sasl.password", "missing: %s needs one of password, password_env, password_file, password_cmd", s.Mechanism)
		case 1:
		default:
			add(passwords[1], "more than one password source (%s): set exactly one", strings.Join(passwords, ", "))
		}
		if s.Token != "" || s.TokenFile != "" {
			add("sasl.token", "only used with %s, not %s", MechanismOAuthBearer, s.Mechanism)
		}
	case MechanismOAuthBearer:
		switch {
		case s.Token == "" && s.TokenFile == "":
			add("sasl.token", "missing: %s needs token or token_file", s.Mechanism)
		case s.Token != "" && s.TokenFile != "":
			add("sasl.token_file", "more than one token source (sasl.token, sasl.token_file): set exactly one")
		}
		if len(passwords) > 0 {
			add(passwords[0], "not used with %s (it takes token or token_file)", s.Mechanism)
		}
	case MechanismAWSMSKIAM:
		if len(passwords) > 0 {
			add(passwords[0], "not used with %s: credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN", s.Mechanism)
		}
	}
	// An unknown mechanism is the sasl.mechanism setting's own check.
}

// passwordSources lists the password settings that are set, in Settings
// order.
func (s SASLConfig) passwordSources() []string {
	pw, _ := Lookup("sasl.password")
	c := Cluster{SASL: s}
	var out []string
	for _, alt := range pw.alternatives() {
		if !alt.isZero(&c) {
			out = append(out, alt.Key)
		}
	}
	return out
}

// checkHostPort accepts host:port with a non-empty host and a port in
// 1..65535 (IPv6 hosts in brackets).
func checkHostPort(s string) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil || host == "" {
		return fmt.Errorf("bad broker address %q: want host:port, e.g. kafka-1:9092", s)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("bad broker address %q: port must be a number from 1 to 65535", s)
	}
	return nil
}
