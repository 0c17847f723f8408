package metrics

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
)

// userHZ is the unit of /proc's CPU times and start time: USER_HZ, 100
// on every Linux architecture Go runs on.
const userHZ = 100

// processFamilies is the process's families, read from /proc: CPU time,
// memory, start time, file descriptors and limits, and the bytes of the
// process's network namespace. Each source that cannot be read leaves its
// families out.
func processFamilies() []*Family {
	const G, C = Gauge, Counter
	var out []*Family
	if st, err := readStat("/proc/self/stat"); err == nil {
		out = append(out,
			one("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", C, float64(st.utime+st.stime)/userHZ),
			one("process_virtual_memory_bytes", "Virtual memory size in bytes.", G, float64(st.vsize)),
			one("process_resident_memory_bytes", "Resident memory size in bytes.", G, float64(st.rss)*float64(os.Getpagesize())))
		if boot, err := bootTime("/proc/stat"); err == nil {
			out = append(out, one("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", G, float64(boot)+float64(st.start)/userHZ))
		}
	}
	if d, err := os.Open("/proc/self/fd"); err == nil {
		names, err := d.Readdirnames(-1)
		_ = d.Close()
		if err == nil {
			out = append(out, one("process_open_fds", "Number of open file descriptors.", G, float64(len(names))))
		}
	}
	if b, err := os.ReadFile("/proc/self/limits"); err == nil {
		files, fok := softLimit(b, "Max open files")
		space, sok := softLimit(b, "Max address space")
		if fok && sok {
			out = append(out,
				one("process_max_fds", "Maximum number of open file descriptors.", G, files),
				one("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", G, space))
		}
	}
	if b, err := os.ReadFile("/proc/self/net/netstat"); err == nil {
		in, out2 := netOctets(b)
		out = append(out,
			one("process_network_receive_bytes_total", "Number of bytes received by the process over the network.", C, in),
			one("process_network_transmit_bytes_total", "Number of bytes sent by the process over the network.", C, out2))
	}
	return out
}

// procStat is what the families take of /proc/self/stat.
type procStat struct {
	utime, stime, start, vsize, rss uint64
}

// readStat reads the fields of a /proc/PID/stat: after the command in
// parentheses (which may hold spaces and parentheses), field 3 on, of
// which utime is 14, stime 15, starttime 22, vsize 23 and rss 24.
func readStat(path string) (procStat, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return procStat{}, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, os.ErrInvalid
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 22 {
		return procStat{}, os.ErrInvalid
	}
	var st procStat
	for _, x := range []struct {
		field int
		to    *uint64
	}{{14, &st.utime}, {15, &st.stime}, {22, &st.start}, {23, &st.vsize}} {
		if *x.to, err = strconv.ParseUint(f[x.field-3], 10, 64); err != nil {
			return procStat{}, err
		}
	}
	rss, err := strconv.ParseInt(f[24-3], 10, 64)
	if err != nil {
		return procStat{}, err
	}
	st.rss = uint64(max(rss, 0))
	return st, nil
}

// bootTime is the btime line of /proc/stat: when the system booted, in
// Unix seconds.
func bootTime(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			return strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, os.ErrNotExist
}

// softLimit is the soft limit of the named row of /proc/PID/limits;
// "unlimited" is the largest uint64, as the kernel means it.
func softLimit(limits []byte, name string) (float64, bool) {
	for line := range strings.SplitSeq(string(limits), "\n") {
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || rest[0] != ' ' {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		if f[0] == "unlimited" {
			return float64(uint64(math.MaxUint64)), true
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		return float64(v), err == nil
	}
	return 0, false
}

// netOctets is InOctets and OutOctets of the IpExt rows of
// /proc/PID/net/netstat (a row of names, then one of values); 0 for one
// that is not there.
func netOctets(netstat []byte) (in, out float64) {
	lines := strings.Split(string(netstat), "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "IpExt:") || !strings.HasPrefix(lines[i+1], "IpExt:") {
			continue
		}
		names, vals := strings.Fields(lines[i])[1:], strings.Fields(lines[i+1])[1:]
		for j := range min(len(names), len(vals)) {
			v, err := strconv.ParseFloat(vals[j], 64)
			if err != nil {
				continue
			}
			switch names[j] {
			case "InOctets":
				in = v
			case "OutOctets":
				out = v
			}
		}
		return in, out
	}
	return 0, 0
}
