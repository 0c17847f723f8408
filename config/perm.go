package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// permissionWarnings says who else can change the configuration file at
// path, or read it while it holds an inline secret: a file or directory
// that the group or others can write lets them plant a password_cmd, which
// kgroups would run. A directory with the sticky bit (like /tmp) is fine:
// others cannot replace a file in it. Windows permissions are not modes,
// so there it says nothing.
func permissionWarnings(path string, cfg *Config) []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	var out []string
	st, err := os.Stat(target)
	if err == nil && !st.Mode().IsRegular() {
		// A device, a pipe, a socket: what it gives is not a file's
		// content, and its mode says nothing about who can change that.
		return []string{fmt.Sprintf("config %s is not a regular file (it is %s): kgroups read what it gave, but cannot tell who can change that; give the path of a regular file", path, modeKind(st.Mode()))}
	}
	if err == nil {
		mode := st.Mode().Perm()
		if mode&0o022 != 0 {
			out = append(out, fmt.Sprintf("config %s can be written by %s (mode %04o): they could change what kgroups runs and where it connects; chmod 600 %s", path, whom(mode, 0o020, 0o002), mode, path))
		}
		if mode&0o044 != 0 && cfg.hasInlineSecret() {
			out = append(out, fmt.Sprintf("config %s holds an inline password or token and can be read by %s (mode %04o); chmod 600 %s, or use password_env, password_file or token_file", path, whom(mode, 0o040, 0o004), mode, path))
		}
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err == nil {
		mode := st.Mode()
		if mode.Perm()&0o022 != 0 && mode&fs.ModeSticky == 0 {
			out = append(out, fmt.Sprintf("the directory %s of config %s can be written by %s (mode %04o): they could replace the file; chmod 700 %s", dir, path, whom(mode.Perm(), 0o020, 0o002), mode.Perm(), dir))
		}
	}
	return out
}

// hasCommand reports whether a context of the file runs a command
// (password_cmd).
func (c *Config) hasCommand() bool {
	for i := range c.Contexts {
		if c.Contexts[i].SASL.PasswordCmd != "" {
			return true
		}
	}
	return false
}

// commandFileProblem says why a configuration file may not run commands,
// or "" when it may. As ssh requires of its configuration, a file whose
// commands kgroups runs is a regular file owned by the user (or root)
// that no one else can write, in a folder no one else can add files to
// or replace them in (a sticky folder such as /tmp stops others from
// replacing a file they do not own). The symbolic link at path is
// followed, and both folders are checked: the link's and the file's.
// Windows permissions are not modes, so there it says nothing.
func commandFileProblem(path string) string {
	if runtime.GOOS == "windows" {
		return ""
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Sprintf("cannot check who can change config %s: %v", path, err)
	}
	st, err := os.Stat(target)
	if err != nil {
		return fmt.Sprintf("cannot check who can change config %s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Sprintf("config %s is %s, not a regular file: give the path of a regular file", path, modeKind(st.Mode()))
	}
	if owner := ownerOf(st); owner != "" {
		return fmt.Sprintf("config %s is %s: only your own file may run commands; copy it to a file of yours (chmod 600)", path, owner)
	}
	if mode := st.Mode().Perm(); mode&0o022 != 0 {
		return fmt.Sprintf("config %s can be written by %s (mode %04o), who could change the command; fix with: chmod go-w %s", path, whom(mode, 0o020, 0o002), mode, path)
	}
	dirs := []string{filepath.Dir(target)}
	if d := filepath.Dir(path); d != dirs[0] {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Sprintf("cannot check who can change the folder %s of config %s: %v", dir, path, err)
		}
		if owner := ownerOf(st); owner != "" {
			return fmt.Sprintf("the folder %s of config %s is %s, who could replace the file; keep the file in a folder of yours", dir, path, owner)
		}
		if mode := st.Mode(); mode.Perm()&0o022 != 0 && mode&fs.ModeSticky == 0 {
			return fmt.Sprintf("the folder %s of config %s can be written by %s (mode %04o), who could replace the file; fix with: chmod go-w %s", dir, path, whom(mode.Perm(), 0o020, 0o002), mode.Perm(), dir)
		}
	}
	return ""
}

// whom names who the bits group and other of mode allow.
func whom(mode, group, other fs.FileMode) string {
	switch {
	case mode&group != 0 && mode&other != 0:
		return "its group and others"
	case mode&group != 0:
		return "its group"
	}
	return "others"
}

// hasInlineSecret reports whether a context of the file holds a password or
// a token itself rather than a reference to one.
func (c *Config) hasInlineSecret() bool {
	for i := range c.Contexts {
		x := &c.Contexts[i]
		for j := range Settings {
			if s := &Settings[j]; s.Secret && s.field != nil && !s.isZero(x) {
				return true
			}
		}
	}
	return false
}

// modeKind names what a file that is not a regular file is.
func modeKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "not a plain file"
}
