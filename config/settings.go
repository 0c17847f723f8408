package config

import (
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind is how a setting's text is parsed.
type Kind int

// Setting kinds.
const (
	KindString Kind = iota
	KindList        // comma-separated, or a YAML list in the file
	KindBool
	KindDuration // a positive Go duration: 500ms, 10s, 1m
	// KindPatterns is a list of regular expressions: a repeatable flag,
	// and in a flag, a variable or a string in the file, split at the
	// commas outside (), [] and {} (splitPatterns), so that "undo.{1,3}"
	// stays one pattern; a YAML list in the file.
	KindPatterns
)

// Setting is one configurable value, declared once: its key in the file,
// its flag and environment variable, its type, default and validation, and
// whether it belongs to the connection to one cluster. The file parser, the
// overrides from flags and the environment, validation, `config view`, flag
// registration, environment binding and the help all read Settings, so a
// setting is added or changed here and nowhere else.
type Setting struct {
	// Key is the setting's key under a context in the file ("brokers",
	// "tls.ca_file", ...), or KeyConfig / KeyContext for the two that
	// choose the file and the context, or KeyDebug for the debug log
	// (none of the three is a field of a context).
	Key string
	// Flag is the long flag name, empty for settings that must not be
	// flags (a password on the command line shows up in ps) or that only
	// the file sets.
	Flag  string
	Short string
	// Env is the environment variable, empty for settings only the file
	// sets.
	Env  string
	Kind Kind
	// Default is the value, as text of Kind, that an unset setting takes;
	// empty for none.
	Default string
	Usage   string
	// Connection marks the settings that say how to reach and
	// authenticate to one cluster (brokers, TLS, SASL): given on the
	// command line for one cluster, they do not carry over when the UI
	// switches to another context.
	Connection bool
	// Secret settings are masked when shown, and errors never quote them.
	Secret bool
	// Command settings are commands, whose text may hold a secret (a
	// token on a command line): shown only as set or not.
	Command bool
	// OneOf names a value that several settings supply in different ways
	// (the SASL password inline, from a variable, a file or a command):
	// setting one of them replaces whichever the file set, rather than
	// conflicting with it.
	OneOf string
	// Guard marks a safety switch (read_only, protected): a flag or an
	// environment variable can turn it on but never off when the file
	// turns it on, so a stray exported variable cannot drop a production
	// guard. Guard is the word messages use for it.
	Guard string
	// AliasOf names the setting this key is an older name of: its key
	// in the file and its variable still work and set the same value
	// (both in one file is an error), it has no flag of its own, and
	// `config view` shows the value under the new key.
	AliasOf string

	// field points at the setting's value in a Cluster: *string,
	// *[]string, *bool or *time.Duration as Kind says. Nil for KeyConfig,
	// KeyContext and KeyDebug.
	field func(*Cluster) any
	// check validates the value on its own (given what field returns),
	// after defaults and overrides; rules across settings are in
	// Cluster.Validate. It returns the problems found, each a message
	// about the setting.
	check func(field any) []string
}

// Keys of the settings that are not fields of a context.
const (
	KeyConfig  = "config"
	KeyContext = "context"
	// KeyDebug names the file the debug trace is appended to. It belongs
	// to the run, not to a context: no file sets it, and it stays when
	// the UI switches context.
	KeyDebug = "debug"
)

// Settings lists every setting, in the order of the file (and so of `config
// view` and of the "known keys" in errors).
var Settings = []Setting{
	{Key: KeyConfig, Flag: "config", Env: "KGROUPS_CONFIG", Usage: "configuration file (default $XDG_CONFIG_HOME/kgroups/config.yaml)"},
	{Key: KeyContext, Flag: "context", Env: "KGROUPS_CONTEXT", Usage: "context to use (default: current-context from the file)"},
	{Key: KeyDebug, Flag: "debug", Env: "KGROUPS_DEBUG", Usage: "append a debug trace of this run to FILE (created 0600; secrets are masked), to send with a bug report"},
	{Key: "brokers", Flag: "brokers", Short: "b", Env: "KGROUPS_BROKERS", Kind: KindList, Connection: true,
		Usage: "bootstrap brokers host:port,... (works without a configuration file)",
		field: func(c *Cluster) any { return &c.Brokers }, check: checkBrokers},
	{Key: "tls.enabled", Flag: "tls", Env: "KGROUPS_TLS", Kind: KindBool, Connection: true, Usage: "connect with TLS",
		field: func(c *Cluster) any { return &c.TLS.Enabled }},
	{Key: "tls.ca_file", Flag: "tls-ca-file", Env: "KGROUPS_TLS_CA_FILE", Connection: true, Usage: "PEM file of CAs to trust (implies --tls)",
		field: func(c *Cluster) any { return &c.TLS.CAFile }},
	{Key: "tls.cert_file", Flag: "tls-cert-file", Env: "KGROUPS_TLS_CERT_FILE", Connection: true, Usage: "PEM client certificate for mTLS (implies --tls)",
		field: func(c *Cluster) any { return &c.TLS.CertFile }},
	{Key: "tls.key_file", Flag: "tls-key-file", Env: "KGROUPS_TLS_KEY_FILE", Connection: true, Usage: "PEM client key for mTLS (implies --tls)",
		field: func(c *Cluster) any { return &c.TLS.KeyFile }},
	{Key: "tls.server_name", Flag: "tls-server-name", Env: "KGROUPS_TLS_SERVER_NAME", Connection: true, Usage: "name to verify broker certificates against (implies --tls)",
		field: func(c *Cluster) any { return &c.TLS.ServerName }},
	{Key: "tls.insecure_skip_verify", Flag: "tls-insecure-skip-verify", Env: "KGROUPS_TLS_INSECURE_SKIP_VERIFY", Kind: KindBool, Connection: true, Usage: "do not verify broker certificates (implies --tls)",
		field: func(c *Cluster) any { return &c.TLS.InsecureSkipVerify }},
	{Key: "sasl.mechanism", Flag: "sasl-mechanism", Env: "KGROUPS_SASL_MECHANISM", Connection: true, Usage: "SASL mechanism: " + strings.Join(Mechanisms, ", "),
		field: func(c *Cluster) any { return &c.SASL.Mechanism }, check: checkMechanism},
	{Key: "sasl.username", Flag: "sasl-username", Env: "KGROUPS_SASL_USERNAME", Connection: true, Usage: "SASL username",
		field: func(c *Cluster) any { return &c.SASL.Username }},
	{Key: "sasl.password", Env: "KGROUPS_SASL_PASSWORD", Connection: true, Secret: true, OneOf: "password", Usage: "SASL password",
		field: func(c *Cluster) any { return &c.SASL.Password }},
	{Key: "sasl.password_env", Connection: true, OneOf: "password", Usage: "environment variable holding the SASL password",
		field: func(c *Cluster) any { return &c.SASL.PasswordEnv }},
	{Key: "sasl.password_file", Flag: "sasl-password-file", Env: "KGROUPS_SASL_PASSWORD_FILE", Connection: true, OneOf: "password", Usage: "file holding the SASL password",
		field: func(c *Cluster) any { return &c.SASL.PasswordFile }},
	{Key: "sasl.password_cmd", Connection: true, Command: true, OneOf: "password", Usage: "command printing the SASL password (run with sh -c, within the request timeout)",
		field: func(c *Cluster) any { return &c.SASL.PasswordCmd }},
	{Key: "sasl.token", Connection: true, Secret: true, OneOf: "token", Usage: "OAUTHBEARER token",
		field: func(c *Cluster) any { return &c.SASL.Token }},
	{Key: "sasl.token_file", Flag: "sasl-token-file", Env: "KGROUPS_SASL_TOKEN_FILE", Connection: true, OneOf: "token", Usage: "file holding the OAUTHBEARER token",
		field: func(c *Cluster) any { return &c.SASL.TokenFile }},
	{Key: "client_id", Flag: "client-id", Env: "KGROUPS_CLIENT_ID", Default: DefaultClientID, Usage: "client id sent to the brokers",
		field: func(c *Cluster) any { return &c.ClientID }, check: checkClientID},
	{Key: "request_timeout", Flag: "timeout", Env: "KGROUPS_TIMEOUT", Kind: KindDuration, Default: DefaultRequestTimeout.String(), Usage: "request timeout",
		field: func(c *Cluster) any { return &c.RequestTimeout }, check: checkRequestTimeout},
	{Key: "refresh", Flag: "refresh", Env: "KGROUPS_REFRESH", Kind: KindDuration, Default: DefaultRefresh.String(), Usage: "refresh interval of the live view",
		field: func(c *Cluster) any { return &c.Refresh }, check: checkRefresh},
	{Key: "read_only", Flag: "read-only", Env: "KGROUPS_READ_ONLY", Kind: KindBool, Guard: "read-only", Usage: "disable every write action (can only tighten: a file's read_only: true stays)",
		field: func(c *Cluster) any { return &c.ReadOnly }},
	{Key: "protected", Flag: "protected", Env: "KGROUPS_PROTECTED", Kind: KindBool, Guard: "protected", Usage: "make every write ask for the group name to be typed as confirmation (can only tighten: a file's protected: true stays)",
		field: func(c *Cluster) any { return &c.Protected }},
	{Key: "serve.listen", Flag: "listen", Env: "KGROUPS_SERVE_LISTEN", Default: DefaultServeListen, Usage: "address kgroups serve listens on, host:port (a host other than loopback is your explicit choice)",
		field: func(c *Cluster) any { return &c.Serve.Listen }, check: checkListen},
	{Key: "serve.granularity", Flag: "granularity", Env: "KGROUPS_SERVE_GRANULARITY", Default: "group", Usage: "how finely kgroups serve exports lag: group, topic or partition",
		field: func(c *Cluster) any { return &c.Serve.Granularity }, check: checkGranularity},
	{Key: "serve.allow_groups", Env: "KGROUPS_SERVE_ALLOW_GROUPS", Kind: KindPatterns, AliasOf: "groups.allow", Usage: "older name of groups.allow",
		field: func(c *Cluster) any { return &c.Groups.Allow }},
	{Key: "serve.deny_groups", Env: "KGROUPS_SERVE_DENY_GROUPS", Kind: KindPatterns, AliasOf: "groups.deny", Usage: "older name of groups.deny",
		field: func(c *Cluster) any { return &c.Groups.Deny }},
	{Key: "serve.skip_empty", Env: "KGROUPS_SERVE_SKIP_EMPTY", Kind: KindBool, AliasOf: "groups.skip_empty", Usage: "older name of groups.skip_empty",
		field: func(c *Cluster) any { return &c.Groups.SkipEmpty }},
	{Key: "serve.max_series", Flag: "max-series", Env: "KGROUPS_SERVE_MAX_SERIES", Default: DefaultServeMaxSeries, Usage: "most series of groups kgroups serve exports; past it whole groups are left out, counted and logged (0: no cap)",
		field: func(c *Cluster) any { return &c.Serve.MaxSeries }, check: checkMaxSeries},
	{Key: "groups.allow", Flag: "allow-groups", Env: "KGROUPS_ALLOW_GROUPS", Kind: KindPatterns, Usage: "kgroups serve and health --all-groups take only the groups one of these regular expressions matches whole (repeat the flag, or separate with commas outside (), [] and {}; a YAML list in the file)",
		field: func(c *Cluster) any { return &c.Groups.Allow }, check: checkPatterns},
	{Key: "groups.deny", Flag: "deny-groups", Env: "KGROUPS_DENY_GROUPS", Kind: KindPatterns, Usage: "kgroups serve and health --all-groups leave out the groups one of these regular expressions matches whole (repeat the flag, or separate with commas outside (), [] and {}; a YAML list in the file)",
		field: func(c *Cluster) any { return &c.Groups.Deny }, check: checkPatterns},
	{Key: "groups.skip_empty", Flag: "skip-empty", Env: "KGROUPS_SKIP_EMPTY", Kind: KindBool, Usage: "kgroups serve and health --all-groups leave out the groups in state Empty or Dead (archived groups: no members, commits kept)",
		field: func(c *Cluster) any { return &c.Groups.SkipEmpty }},
}

// canonical is the setting whose value s sets: the setting it is an older
// name of (AliasOf), or itself.
func (s *Setting) canonical() *Setting {
	if s.AliasOf != "" {
		if t, ok := Lookup(s.AliasOf); ok {
			return t
		}
	}
	return s
}

// Defaults of the serve section.
const (
	DefaultServeListen    = "127.0.0.1:9308"
	DefaultServeMaxSeries = "100000"
)

func checkListen(field any) []string {
	s := *field.(*string)
	if s == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return []string{fmt.Sprintf("bad listen address %q: want host:port, e.g. 127.0.0.1:9308 or :9308 for every interface", s)}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return []string{fmt.Sprintf("bad listen address %q: port must be a number from 0 to 65535", s)}
	}
	return nil
}

func checkGranularity(field any) []string {
	switch strings.ToLower(strings.TrimSpace(*field.(*string))) {
	case "", "group", "topic", "partition":
		return nil
	}
	return []string{fmt.Sprintf("unknown granularity %q (accepted: group, topic, partition)", *field.(*string))}
}

func checkPatterns(field any) []string {
	var out []string
	for _, p := range *field.(*[]string) {
		if _, err := regexp.Compile("^(?:" + p + ")$"); err != nil {
			out = append(out, fmt.Sprintf("invalid pattern %q: %v (a Go regular expression, matched against the whole group id)", p, err))
		}
	}
	return out
}

func checkMaxSeries(field any) []string {
	s := strings.TrimSpace(*field.(*string))
	if s == "" {
		return nil
	}
	if n, err := strconv.Atoi(s); err != nil || n < 0 {
		return []string{fmt.Sprintf("bad series cap %q: want a whole number, 0 for no cap", s)}
	}
	return nil
}

// Lookup finds a setting by key.
func Lookup(key string) (*Setting, bool) {
	for i := range Settings {
		if Settings[i].Key == key {
			return &Settings[i], true
		}
	}
	return nil, false
}

// Help is the setting's usage with its default, as flag help and `kgroups
// config --help` show it.
func (s *Setting) Help() string {
	switch {
	case s.Default == "":
		return s.Usage
	case s.Kind == KindString:
		return fmt.Sprintf("%s (default %q)", s.Usage, s.Default)
	}
	return fmt.Sprintf("%s (default %s)", s.Usage, s.Default)
}

// Section is the file mapping the setting sits in under a context ("tls",
// "sasl"), or "" for a key of the context itself.
func (s *Setting) Section() string {
	sec, _, ok := strings.Cut(s.Key, ".")
	if !ok {
		return ""
	}
	return sec
}

// name is the setting's key within its section.
func (s *Setting) name() string {
	if _, n, ok := strings.Cut(s.Key, "."); ok {
		return n
	}
	return s.Key
}

// set parses text as the setting's kind and stores it in c. Its errors say
// what is accepted; the caller names the source.
func (s *Setting) set(c *Cluster, text string) error {
	switch p := s.field(c).(type) {
	case *string:
		*p = text
	case *[]string:
		if s.Kind == KindPatterns {
			ps, err := splitPatterns(text)
			if err != nil {
				return err
			}
			*p = ps
			return nil
		}
		*p = splitList(text)
	case *bool:
		b, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return fmt.Errorf("want true or false, got %q", text)
		}
		*p = b
	case *time.Duration:
		d, err := parseDuration(text)
		if err != nil {
			return err
		}
		*p = d
	}
	return nil
}

// isZero reports whether the setting has no value in c.
func (s *Setting) isZero(c *Cluster) bool {
	switch p := s.field(c).(type) {
	case *string:
		return *p == ""
	case *[]string:
		return len(*p) == 0
	case *bool:
		return !*p
	case *time.Duration:
		return *p == 0
	}
	return true
}

// clear removes the setting's value from c.
func (s *Setting) clear(c *Cluster) {
	switch p := s.field(c).(type) {
	case *string:
		*p = ""
	case *[]string:
		*p = nil
	case *bool:
		*p = false
	case *time.Duration:
		*p = 0
	}
}

// text is the setting's value in c as the file spells it: lists stay
// lists; a zero duration is "".
func (s *Setting) text(c *Cluster) any {
	switch p := s.field(c).(type) {
	case *string:
		return *p
	case *[]string:
		return *p
	case *bool:
		return *p
	case *time.Duration:
		if *p <= 0 {
			return ""
		}
		return p.String()
	}
	return nil
}

// alternatives are the settings that supply the same value as s (itself
// included), in Settings order.
func (s *Setting) alternatives() []*Setting {
	if s.OneOf == "" {
		return []*Setting{s}
	}
	var out []*Setting
	for i := range Settings {
		if Settings[i].OneOf == s.OneOf {
			out = append(out, &Settings[i])
		}
	}
	return out
}

func checkBrokers(field any) []string {
	brokers := *field.(*[]string)
	if len(brokers) == 0 {
		return []string{"missing: at least one host:port is required"}
	}
	var out []string
	for _, b := range brokers {
		if err := checkHostPort(b); err != nil {
			out = append(out, err.Error())
		}
	}
	return out
}

// The bounds of the request timeout and the client id: the Kafka client
// refuses a request timeout below 100ms or above 15 minutes, and a client id
// longer than 256 bytes.
const (
	MinRequestTimeout = 100 * time.Millisecond
	MaxRequestTimeout = 15 * time.Minute
	MaxClientIDBytes  = 256
)

// MinRefresh is the shortest refresh: each one polls every broker
// (ListGroups, describes, offsets), and a shorter one only spends a shared
// host's CPU and the brokers' on the same answers.
const MinRefresh = time.Second

// checkRefresh accepts a refresh of at least MinRefresh.
func checkRefresh(field any) []string {
	d := *field.(*time.Duration)
	switch {
	case d < 0:
		return []string{"must be positive"}
	case d == 0: // unset: the default applies
		return nil
	case d < MinRefresh:
		return []string{fmt.Sprintf("%s is too short: the refresh must be at least %s (each refresh polls every broker), for example 5s", d, MinRefresh)}
	}
	return nil
}

func checkRequestTimeout(field any) []string {
	d := *field.(*time.Duration)
	switch {
	case d < 0:
		return []string{"must be positive"}
	case d == 0: // unset: the default applies
		return nil
	case d < MinRequestTimeout:
		return []string{fmt.Sprintf("%s is too short: the request timeout must be at least %s", d, MinRequestTimeout)}
	case d > MaxRequestTimeout:
		return []string{fmt.Sprintf("%s is too long: the request timeout must be at most %s", d, formatMinutes(MaxRequestTimeout))}
	}
	return nil
}

func formatMinutes(d time.Duration) string { return fmt.Sprintf("%dm", int(d.Minutes())) }

func checkClientID(field any) []string {
	if n := len(*field.(*string)); n > MaxClientIDBytes {
		return []string{fmt.Sprintf("%d bytes is too long: a client id is at most %d bytes", n, MaxClientIDBytes)}
	}
	return nil
}

func checkMechanism(field any) []string {
	if m := *field.(*string); m != "" && !slices.Contains(Mechanisms, m) {
		return []string{fmt.Sprintf("unknown mechanism %q (accepted: %s)", m, strings.Join(Mechanisms, ", "))}
	}
	return nil
}

// SourceKind says what kind of place a setting's value came from.
type SourceKind int

// Source kinds. The zero value is a value that was not given anywhere: a
// default, or a required setting that is missing.
const (
	SourceNone SourceKind = iota
	SourceFile
	SourceEnv
	SourceFlag
)

// Source is where a setting's value came from: its kind and its name there
// ("--timeout", "KGROUPS_TIMEOUT", "config FILE: contexts[NAME].refresh"),
// which errors start with so that the user knows what to edit.
type Source struct {
	Kind SourceKind
	Name string
}

// Flag is the source of a value given as the flag --name.
func Flag(name string) Source { return Source{Kind: SourceFlag, Name: "--" + name} }

// Env is the source of a value given as the environment variable name.
func Env(name string) Source { return Source{Kind: SourceEnv, Name: name} }

func (s Source) String() string { return s.Name }

// Override is one setting supplied by a flag or the environment.
type Override struct {
	Key    string
	Value  string
	Source Source
}

// spelling is the override as the user wrote it: --read-only=false or
// KGROUPS_READ_ONLY=0.
func (o Override) spelling() string {
	if o.Source.Kind == SourceFlag || o.Source.Kind == SourceEnv {
		return o.Source.Name + "=" + o.Value
	}
	return o.Source.Name
}

// SettingError is a problem with one setting, naming where its value came
// from: the command line, the environment or the file. A bad flag is a
// usage mistake; a bad variable or file entry is not (see FromFlags).
type SettingError struct {
	Key    string
	Source Source
	Msg    string
}

func (e *SettingError) Error() string { return e.Source.Name + ": " + e.Msg }

// FromFlags reports whether every problem in err (as returned by Effective)
// is about a value given as a command-line flag.
func FromFlags(err error) bool {
	if err == nil {
		return false
	}
	var walk func(error) bool
	walk = func(err error) bool {
		if se, ok := err.(*SettingError); ok { //nolint:errorlint // every error of the joined tree is judged in turn; errors.As would stop at the first
			return se.Source.Kind == SourceFlag
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs := j.Unwrap()
			for _, e := range errs {
				if !walk(e) {
					return false
				}
			}
			return len(errs) > 0
		}
		return false
	}
	return walk(err)
}

// apply sets one override on the context.
func (c *Cluster) apply(o Override) error {
	s, ok := Lookup(o.Key)
	if !ok || s.field == nil {
		return &SettingError{Key: o.Key, Source: o.Source, Msg: fmt.Sprintf("unknown setting %q", o.Key)}
	}
	if s.Guard != "" && !s.isZero(c) {
		// Guards only tighten: the file turned this one on, and
		// an override may not turn it off.
		// Turning it on again changes nothing, and the file stays
		// where it comes from.
		if on, err := strconv.ParseBool(strings.TrimSpace(o.Value)); err == nil {
			if !on {
				c.notes = append(c.notes, fmt.Sprintf("context %s is %s (%s: true); %s cannot loosen it: edit the file or use another context",
					c.Name, s.Guard, c.Where(s.Key), o.spelling()))
			}
			return nil
		}
	}
	// One source of a value replaces whichever the file set.
	for _, alt := range s.alternatives() {
		alt.clear(c)
		delete(c.origin, alt.Key)
		delete(c.origin, alt.canonical().Key)
	}
	if err := s.set(c, o.Value); err != nil {
		msg := err.Error()
		if s.Secret {
			msg = "invalid value"
		}
		return &SettingError{Key: s.canonical().Key, Source: o.Source, Msg: msg}
	}
	c.setOrigin(s.canonical().Key, o.Source)
	return nil
}
