package metrics

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestProcessFilesParse: the /proc parsers on the files' shapes,
// including a command name with spaces and parentheses.
func TestProcessFilesParse(t *testing.T) {
	dir := t.TempDir()
	stat := dir + "/stat"
	fields := make([]string, 50)
	for i := range fields {
		fields[i] = fmt.Sprint(i + 3)
	}
	if err := os.WriteFile(stat, []byte("4242 (a (b) c) "+strings.Join(fields, " ")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := readStat(stat)
	if err != nil || st != (procStat{utime: 14, stime: 15, start: 22, vsize: 23, rss: 24}) {
		t.Errorf("stat %+v, %v", st, err)
	}
	limits := []byte("Limit                     Soft Limit           Hard Limit           Units     \n" +
		"Max open files            1024                 524288               files     \n" +
		"Max address space         unlimited            unlimited            bytes     \n")
	if v, ok := softLimit(limits, "Max open files"); !ok || v != 1024 {
		t.Errorf("open files %v %v", v, ok)
	}
	if v, ok := softLimit(limits, "Max address space"); !ok || v != 1.8446744073709552e19 {
		t.Errorf("address space %v %v", v, ok)
	}
	netstat := []byte("TcpExt: SyncookiesSent\nTcpExt: 0\nIpExt: InNoRoutes InOctets OutOctets\nIpExt: 0 15985390686 15016633891\n")
	if in, out := netOctets(netstat); in != 15985390686 || out != 15016633891 {
		t.Errorf("octets %v %v", in, out)
	}
}
