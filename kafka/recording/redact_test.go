package recording

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/lag"
)

// TestRedactKeepsTheVerdicts: a redacted recording holds none of the
// names of the original, and replays to the same verdicts, time lags and
// rates, group for group.
func TestRedactKeepsTheVerdicts(t *testing.T) {
	polls := evolvingPolls(16)
	polls[7].Snapshot = hostile(polls[7].Snapshot.Time)
	orig := record(t, Header{Groups: []string{"orders-app"}, Cluster: []string{"kafka-1.internal:9092"}}, polls)

	r := NewRedactor()
	var out bytes.Buffer
	in, err := ReadAll(bytes.NewReader(orig))
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(&out, r.Header(in.Header))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range in.Polls {
		if err := w.Write(r.Poll(*p)); err != nil {
			t.Fatal(err)
		}
	}
	red, err := ReadAll(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !red.Header.Redacted || red.Header.Groups[0] != "group-1" || red.Header.Cluster[0] != "host-1:9092" {
		t.Errorf("header %+v", red.Header)
	}
	// No name of the original is left in the file.
	for kind, names := range r.names {
		for name := range names {
			if len(name) >= 4 && bytes.Contains(out.Bytes(), []byte(name)) {
				t.Errorf("the %s %q is still in the redacted file", kind, name)
			}
		}
	}
	if n := len(r.names["group"]); n < 8 {
		t.Fatalf("only %d groups named", n)
	}

	a, b := lag.NewTracker(in.Header.Config()), lag.NewTracker(red.Header.Config())
	for i := range in.Polls {
		Feed(a, in.Polls[i])
		Feed(b, red.Polls[i])
		s := in.Polls[i].Snapshot
		if s == nil {
			continue
		}
		for gi := range s.Groups {
			name := s.Groups[gi].Name
			va, vb := a.Named(name), b.Named(r.names["group"][name])
			if va.Text() != vb.Text() || va.TotalLag != vb.TotalLag || va.MaxTimeLag != vb.MaxTimeLag || va.ProduceRate != vb.ProduceRate || va.ConsumeRate != vb.ConsumeRate || va.Observations != vb.Observations {
				t.Fatalf("poll %d, %q: %+v redacted to %+v", i, name, va, vb)
			}
		}
		// Structure and counts stay.
		rs := red.Polls[i].Snapshot
		if len(rs.Groups) != len(s.Groups) {
			t.Fatalf("poll %d: %d groups, redacted %d", i, len(s.Groups), len(rs.Groups))
		}
		for gi := range s.Groups {
			g := &s.Groups[gi]
			rg, ok := rs.Group(r.names["group"][g.Name])
			if !ok || len(rg.Members) != len(g.Members) || len(rg.Partitions) != len(g.Partitions) || rg.State != g.State || rg.TotalLag() != g.TotalLag() {
				t.Fatalf("poll %d: %q redacted to %+v", i, g.Name, rg)
			}
		}
	}
	// An error's words lose the names in them.
	if got := r.text("fetch offsets for group \"orders-app\" on kafka-1.internal failed"); strings.Contains(got, "orders-app") || strings.Contains(got, "kafka-1.internal") {
		t.Errorf("error words: %q", got)
	}
}
