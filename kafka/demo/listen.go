package demo

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// maxFirstPort leaves room for the second and third brokers, which listen on
// the two ports after the first one.
const maxFirstPort = 65533

// ParseListen validates a --listen value of the form HOST:PORT and returns
// the host to bind and the first broker's port. The demo cluster has no
// authentication, so it only ever binds a loopback address; the three brokers
// take PORT, PORT+1 and PORT+2. "localhost" means 127.0.0.1.
//
// It is exported so the command line can reject a bad value as a usage error
// before anything is started.
func ParseListen(listen string) (host string, port int, err error) {
	h, p, splitErr := net.SplitHostPort(strings.TrimSpace(listen))
	if splitErr != nil {
		return "", 0, fmt.Errorf("listen address %q: want HOST:PORT with a loopback host, e.g. 127.0.0.1:9092", listen)
	}
	switch {
	case h == "":
		return "", 0, fmt.Errorf("listen address %q: host is missing; use a loopback host such as 127.0.0.1 (the demo cluster is never exposed to the network)", listen)
	case strings.EqualFold(h, "localhost"):
		h = "127.0.0.1"
	default:
		ip := net.ParseIP(h)
		if ip == nil || !ip.IsLoopback() {
			return "", 0, fmt.Errorf("listen address %q: host %q is not a loopback address; use 127.0.0.1, ::1 or localhost (the demo cluster is never exposed to the network)", listen, h)
		}
	}
	n, convErr := strconv.Atoi(p)
	if convErr != nil || n < 1 || n > maxFirstPort {
		return "", 0, fmt.Errorf("listen address %q: port %q must be a number from 1 to %d (the three brokers use PORT, PORT+1 and PORT+2)", listen, p, maxFirstPort)
	}
	return h, n, nil
}
