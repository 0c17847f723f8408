package config

import (
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// CommandLine holds the global flags of Settings and reads, through viper,
// what the flags and the environment say, a flag beating its variable. The
// file and the defaults are layered underneath by Effective, so the
// precedence is flags, environment, file, defaults.
type CommandLine struct {
	flags *pflag.FlagSet
	v     *viper.Viper
}

// NewCommandLine declares every setting that has a flag on a new flag set
// and binds each setting to its flag and environment variable. Lists are
// plain strings ("a:1,b:2"), so a flag and a variable read the same. The
// TLS and SASL flags are hidden: they would swamp every command's help, and
// `kgroups config --help` lists them.
func NewCommandLine() *CommandLine {
	fs := pflag.NewFlagSet("kgroups", pflag.ContinueOnError)
	v := viper.New()
	for i := range Settings {
		s := &Settings[i]
		if s.Flag != "" {
			usage := s.Help()
			if s.Env != "" {
				usage += " [$" + s.Env + "]"
			}
			switch s.Kind {
			case KindBool:
				fs.BoolP(s.Flag, s.Short, false, usage)
			case KindDuration:
				fs.DurationP(s.Flag, s.Short, 0, usage)
			case KindPatterns:
				fs.VarP(&patternsFlag{}, s.Flag, s.Short, usage)
			default:
				fs.StringP(s.Flag, s.Short, "", usage)
			}
			if s.Section() != "" {
				_ = fs.MarkHidden(s.Flag)
			}
			// Both calls fail only for a nil flag or an empty key,
			// which the table rules out.
			_ = v.BindPFlag(s.Key, fs.Lookup(s.Flag))
		}
		if s.Env != "" {
			_ = v.BindEnv(s.Key, s.Env)
		}
	}
	return &CommandLine{flags: fs, v: v}
}

// Flags is the flag set to parse, or to add to a command's persistent
// flags.
func (c *CommandLine) Flags() *pflag.FlagSet { return c.flags }

// ConfigPath is the configuration file named by --config or
// KGROUPS_CONFIG, and whether one was named.
func (c *CommandLine) ConfigPath() (string, bool) {
	return c.v.GetString(KeyConfig), c.v.IsSet(KeyConfig)
}

// DebugPath is the debug log named by --debug or KGROUPS_DEBUG, "" for
// none.
func (c *CommandLine) DebugPath() string { return c.v.GetString(KeyDebug) }

// Selection gathers the context choice and the overrides from the flags and
// the environment, each with its source.
func (c *CommandLine) Selection() Selection {
	var sel Selection
	for i := range Settings {
		s := &Settings[i]
		if (s.Flag == "" && s.Env == "") || !c.v.IsSet(s.Key) {
			continue
		}
		src := Env(s.Env)
		if s.Flag != "" {
			if f := c.flags.Lookup(s.Flag); f != nil && f.Changed {
				src = Flag(s.Flag)
			}
		}
		val := c.v.GetString(s.Key)
		switch s.Key {
		case KeyConfig:
			if src.Kind == SourceFlag {
				sel.Config = val
			}
		case KeyDebug:
		case KeyContext:
			sel.Context, sel.ContextSource = val, src
		default:
			sel.Overrides = append(sel.Overrides, Override{Key: s.Key, Value: val, Source: src})
		}
	}
	return sel
}
