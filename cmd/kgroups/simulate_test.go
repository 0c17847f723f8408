package main

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// simCluster is a kfake cluster with a classic range group of three
// dynamic members on orders (6 partitions), owning 0-1, 2-3 and 4-5 in
// member id order, and a KIP-848 group of two members.
type simCluster struct {
	*kafkatest.Cluster
	brokers string
	ids     []string // the range group's member ids, sorted
}

const (
	simRange = "sim-range"
	sim848   = "sim-848"
)

func startSimCluster(t *testing.T) *simCluster {
	t.Helper()
	isolateConfig(t)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	for _, id := range []string{"r1", "r2", "r3"} {
		c.Join(t, simRange, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID(id))
	}
	for _, id := range []string{"k1", "k2"} {
		c.Join(t, sim848, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID(id))
	}
	c.WaitStable(t, simRange, 3, 6)
	cl := c.Client(t)
	var ids []string
	kafkatest.Eventually(t, "both groups to settle as kgroups sees them", func() bool {
		s, err := cl.PollGroups(context.Background(), simRange, sim848)
		if err != nil {
			return false
		}
		r, ok1 := s.Group(simRange)
		k, ok2 := s.Group(sim848)
		if !ok1 || !ok2 || r.State != kafka.StateStable || k.State != kafka.StateStable || len(r.Members) != 3 || len(k.Members) != 2 {
			return false
		}
		ids = ids[:0]
		for _, m := range r.Members {
			if m.PartitionCount() != 2 || len(m.JoinMetadata) == 0 {
				return false
			}
			ids = append(ids, m.MemberID)
		}
		for _, m := range k.Members {
			if m.PartitionCount() != 3 || !reflect.DeepEqual(m.Assignment, m.Target) {
				return false
			}
		}
		return true
	})
	return &simCluster{Cluster: c, brokers: strings.Join(c.Addrs, ","), ids: ids}
}

type simJSON struct {
	Group     string `json:"group"`
	Change    string `json:"change"`
	Type      string `json:"type"`
	Assignors []struct {
		Assignor string `json:"assignor"`
		Moved    int    `json:"moved"`
		Rounds   int    `json:"rounds"`
		Moves    []struct {
			Topic     string  `json:"topic"`
			Partition int32   `json:"partition"`
			From      *string `json:"from"`
			To        *string `json:"to"`
		} `json:"moves"`
		Assignment map[string][]struct {
			Topic      string  `json:"topic"`
			Partitions []int32 `json:"partitions"`
		} `json:"assignment"`
		Error *string `json:"error"`
	} `json:"assignors"`
	Members []struct {
		MemberID string `json:"memberId"`
		ClientID string `json:"clientId"`
		Current  []struct {
			Topic      string  `json:"topic"`
			Partitions []int32 `json:"partitions"`
		} `json:"current"`
		Target []struct {
			Topic      string  `json:"topic"`
			Partitions []int32 `json:"partitions"`
		} `json:"target"`
	} `json:"members"`
}

// TestSimulateCLIIdentifiesTheLeader: a group of franz-go members with
// kgo's default client id is identified as a Java/franz-go leader; range
// and roundrobin are approximate because the joiner's member id decides
// the result, the sticky assignors because the leader breaks ties its own
// way, in the table and the JSON.
func TestSimulateCLIIdentifiesTheLeader(t *testing.T) {
	isolateConfig(t)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	const group = "sim-coop"
	for range 2 {
		c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.CooperativeStickyBalancer()))
	}
	c.WaitStable(t, group, 2, 6)
	brokers := strings.Join(c.Addrs, ",")
	var stdout, stderr string
	var code int
	kafkatest.Eventually(t, group+" to show both members' metadata", func() bool {
		code, stdout, stderr = runKgroups(t, "-b", brokers, "simulate", group, "--join", "1")
		return code == 0 && strings.Contains(stdout, "2 members")
	})
	for _, want := range []string{
		"Group sim-coop (classic, Stable, assignor cooperative-sticky (Java/franz-go leader), 2 members): join 1\n",
		"ASSIGNOR            CONFIDENCE   MOVED  ROUNDS  MEMBERS  NOTE\n",
		// The sticky assignors give the joiner two partitions; what
		// range and roundrobin move depends on the layout the members
		// settled into, so only their confidence is checked.
		"sticky              approximate      2       1        3  if the group used sticky; the leader breaks ties its own way (franz-go's at random): ",
		"cooperative-sticky  approximate      2       2        3  the group's assignor; the leader breaks ties its own way (franz-go's at random): ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{
		"range               approximate",
		"roundrobin          approximate",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// How many different results the three places give depends on the
	// layout the members settled into; that they are three places does not.
	if !regexp.MustCompile(`  if the group used range; joiners' member ids decide the result: [23] results in 3 places run\n`).MatchString(stdout) {
		t.Errorf("output lacks range's note over 3 places:\n%s", stdout)
	}
	code, stdout, stderr = runKgroups(t, "-b", brokers, "simulate", group, "--join", "1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Leader struct {
			Impl, Protocol, Label string
			Partial               bool
		} `json:"leader"`
		Assignors []struct {
			Assignor, Impl, Confidence, Note string
			Moved                            int
		} `json:"assignors"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if doc.Leader.Impl != "java" || doc.Leader.Protocol != "cooperative-sticky" || doc.Leader.Partial || doc.Leader.Label != "assignor cooperative-sticky (Java/franz-go leader)" {
		t.Errorf("leader %+v", doc.Leader)
	}
	var got []string
	for _, a := range doc.Assignors {
		// How many results franz-go's sticky balancers gave varies.
		note, _, _ := strings.Cut(a.Note, " (franz-go's at random)")
		note = regexp.MustCompile(`: [23] results in 3 places run$`).ReplaceAllString(note, ": N results in 3 places run")
		got = append(got, a.Assignor+"/"+a.Impl+"/"+a.Confidence+"/"+note)
	}
	want := []string{
		"range/java/approximate/if the group used range; joiners' member ids decide the result: N results in 3 places run",
		"roundrobin/java/approximate/if the group used roundrobin; joiners' member ids decide the result: N results in 3 places run",
		"sticky/java/approximate/if the group used sticky; the leader breaks ties its own way",
		"cooperative-sticky/java/approximate/the group's assignor; the leader breaks ties its own way",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("assignors %v, want %v", got, want)
	}
}

func TestSimulateCLI(t *testing.T) {
	c := startSimCluster(t)
	m0, m1, m2 := c.ids[0], c.ids[1], c.ids[2]

	t.Run("leave json", func(t *testing.T) {
		code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", simRange, "--leave", m1, "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc simJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if doc.Group != simRange || doc.Change != "leave "+m1 || doc.Type != "classic" {
			t.Errorf("group %q change %q type %q", doc.Group, doc.Change, doc.Type)
		}
		var names []string
		for _, a := range doc.Assignors {
			names = append(names, a.Assignor)
			if a.Error != nil {
				t.Errorf("%s: %s", a.Assignor, *a.Error)
			}
			if a.Moved != len(a.Moves) {
				t.Errorf("%s: moved %d but %d moves", a.Assignor, a.Moved, len(a.Moves))
			}
		}
		if want := []string{"range", "roundrobin", "sticky", "cooperative-sticky"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("assignors %v, want %v", names, want)
		}
		// range over the two left: m0 takes 0-2, m2 takes 3-5.
		type move struct {
			p        int32
			from, to string
		}
		moves := func(i int) []move {
			var out []move
			for _, m := range doc.Assignors[i].Moves {
				if m.Topic != "orders" || m.From == nil || m.To == nil {
					t.Fatalf("%s: unexpected move %+v", doc.Assignors[i].Assignor, m)
				}
				out = append(out, move{m.Partition, *m.From, *m.To})
			}
			return out
		}
		if got, want := moves(0), []move{{2, m1, m0}, {3, m1, m2}}; !reflect.DeepEqual(got, want) {
			t.Errorf("range moves %v, want %v", got, want)
		}
		if got := doc.Assignors[0].Assignment; len(got) != 2 || !reflect.DeepEqual(got[m0][0].Partitions, []int32{0, 1, 2}) || !reflect.DeepEqual(got[m2][0].Partitions, []int32{3, 4, 5}) {
			t.Errorf("range assignment %+v", got)
		}
		// roundrobin deals alternately: m0 0,2,4 and m2 1,3,5.
		if got, want := moves(1), []move{{1, m0, m2}, {2, m1, m0}, {3, m1, m2}, {4, m2, m0}}; !reflect.DeepEqual(got, want) {
			t.Errorf("roundrobin moves %v, want %v", got, want)
		}
		// The sticky ones move only m1's two partitions.
		for _, i := range []int{2, 3} {
			got := moves(i)
			if len(got) != 2 || got[0].p != 2 || got[1].p != 3 || got[0].from != m1 || got[1].from != m1 {
				t.Errorf("%s moves %v, want m1's partitions 2 and 3", doc.Assignors[i].Assignor, got)
			}
		}
	})

	t.Run("assignor filter", func(t *testing.T) {
		code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", simRange, "--leave", m1, "--assignor", "sticky,range", "--assignor", "range", "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc simJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		var names []string
		for _, a := range doc.Assignors {
			names = append(names, a.Assignor)
		}
		if want := []string{"range", "sticky"}; !reflect.DeepEqual(names, want) || doc.Assignors[0].Moved != 2 {
			t.Errorf("--assignor sticky,range: assignors %v (range moved %d), want %v in output order, range moving 2", names, doc.Assignors[0].Moved, want)
		}
		code, stdout, stderr = runKgroups(t, "-b", c.brokers, "simulate", simRange, "--leave", m1, "--assignor", "uniform")
		want := "kgroups: invalid --assignor \"uniform\": give one of range, roundrobin, sticky, cooperative-sticky\nRun 'kgroups simulate --help' for usage.\n"
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("--assignor uniform: exit %d, stdout %q, stderr\n%q\nwant\n%q", code, stdout, stderr, want)
		}
	})

	t.Run("leave by client id", func(t *testing.T) {
		// r2 is the client id of the middle member: the same simulation
		// as --leave with its member id.
		code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", simRange, "--leave", "r2", "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc simJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if doc.Change != "leave "+m1 || len(doc.Assignors) != 4 || doc.Assignors[0].Moved != 2 {
			t.Fatalf("change %q, %d assignors, range moved %d; want leave %s, 4, 2", doc.Change, len(doc.Assignors), doc.Assignors[0].Moved, m1)
		}
	})

	t.Run("leave by instance id, and an ambiguous name", func(t *testing.T) {
		// sim-ids: two members with client id dup, and a static member
		// (instance static-1, client solo).
		const group = "sim-ids"
		c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("dup"))
		c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("dup"))
		c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("solo"), kgo.InstanceID("static-1"))
		c.WaitStable(t, group, 3, 6)
		cl := c.Client(t)
		var g *kafka.Group
		kafkatest.Eventually(t, "sim-ids to settle as kgroups sees them", func() bool {
			s, err := cl.PollGroups(context.Background(), group)
			if err != nil {
				return false
			}
			x, ok := s.Group(group)
			if !ok || x.State != kafka.StateStable || len(x.Members) != 3 {
				return false
			}
			for _, m := range x.Members {
				if m.PartitionCount() != 2 || len(m.JoinMetadata) == 0 {
					return false
				}
			}
			g = x
			return true
		})
		var static string
		var dups []kafka.Member
		for _, m := range g.Members {
			if m.InstanceID == "static-1" {
				static = m.MemberID
			} else {
				dups = append(dups, m)
			}
		}
		if static == "" || len(dups) != 2 {
			t.Fatalf("members %+v", g.Members)
		}
		for _, name := range []string{"static-1", "solo", static} {
			code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", group, "--leave", name, "-o", "json")
			if code != 0 {
				t.Fatalf("--leave %s: exit %d: %s", name, code, stderr)
			}
			var doc simJSON
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if doc.Change != "leave "+static {
				t.Errorf("--leave %s simulated %q, want leave %s", name, doc.Change, static)
			}
			for _, a := range doc.Assignors {
				if _, ok := a.Assignment[static]; ok || len(a.Assignment) != 2 {
					t.Errorf("--leave %s: %s still assigns %d members: %v", name, a.Assignor, len(a.Assignment), a.Assignment)
				}
			}
		}
		code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", group, "--leave", "dup")
		want := `kgroups: --leave "dup" names 2 members of group "sim-ids" (by client id or instance id): ` +
			dups[0].MemberID + " (client dup), " + dups[1].MemberID + " (client dup); name one by its member id\n"
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Fatalf("--leave dup: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
		}
		// A list of names of which one is ambiguous: nothing is
		// simulated.
		code, stdout, _ = runKgroups(t, "-b", c.brokers, "simulate", group, "--leave", "solo,dup")
		if code != 2 || stdout != "" {
			t.Fatalf("--leave solo,dup: exit %d, stdout %q", code, stdout)
		}
	})

	t.Run("join counts", func(t *testing.T) {
		// More places than MaxPlaces: exactly MaxPlaces are run, and the
		// count of places is the true one (3 members: C(13, 10) = 286
		// for 10 joiners, C(1003, 1000) = 167668501 for 1000), never a
		// capped figure.
		for _, n := range []struct {
			join, placesOf string
		}{{"10", "286"}, {"1000", "167668501"}} {
			code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", simRange, "--join", n.join, "--assignor", "range", "-o", "json")
			if code != 0 {
				t.Fatalf("--join %s: exit %d: %s", n.join, code, stderr)
			}
			var doc struct {
				Assignors []struct {
					Assignor   string          `json:"assignor"`
					Confidence string          `json:"confidence"`
					Note       string          `json:"note"`
					Places     int             `json:"places"`
					PlacesOf   json.Number     `json:"placesOf"`
					Results    json.RawMessage `json:"results"`
				} `json:"assignors"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("--join %s: %v", n.join, err)
			}
			if len(doc.Assignors) != 1 {
				t.Fatalf("--join %s: %d rows, want range's", n.join, len(doc.Assignors))
			}
			r := doc.Assignors[0]
			want := regexp.MustCompile(`^the group's assignor; joiners' member ids (may )?decide the result: [0-9]+ results? in 64 of ` + n.placesOf + ` places run$`)
			if r.Places != 64 || r.PlacesOf.String() != n.placesOf || r.Confidence != "approximate" || !want.MatchString(r.Note) {
				t.Errorf("--join %s: places %d of %s, %s %q", n.join, r.Places, r.PlacesOf, r.Confidence, r.Note)
			}
		}
	})

	t.Run("join table", func(t *testing.T) {
		code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", simRange, "--join", "3")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{
			// Client ids r1-r3 are no client's default, but kgo's range
			// metadata identifies franz-go.
			"Group sim-range (classic, Stable, assignor range (Java/franz-go leader), 3 members): join 3\n",
			"ASSIGNOR            CONFIDENCE   MOVED  ROUNDS  MEMBERS  NOTE\n",
			// Three joiners among three members: 20 places of their
			// member ids, each giving range and roundrobin a result of
			// its own, 3 to 5 moves.
			"range               approximate    3–5       1        6  the group's assignor; joiners' member ids decide the result: 20 results in 20 places run\n",
			"roundrobin          approximate    3–5       1        6  if the group used roundrobin; joiners' member ids decide the result: 20 results in 20 places run\n",
			// The sticky assignors break ties the leader's own way.
			"sticky              approximate      3       1        6  if the group used sticky; the leader breaks ties its own way (franz-go's at random): ",
			"cooperative-sticky  approximate      3       2        6  if the group used cooperative-sticky; the leader breaks ties its own way (franz-go's at random): ",
			"range, result 1 of 20: 3 partitions change process\n",
			"range, result 20 of 20: 5 partitions change process\n",
			"roundrobin, result 1 of 20: 3 partitions change process\n",
			"roundrobin, result 20 of 20: 5 partitions change process\n",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
		}
		joiners, results := 0, 0
		title := regexp.MustCompile(`^(range|roundrobin|sticky|cooperative-sticky)(, result [0-9]+ of [0-9]+)?: [0-9]+ partitions? changes? process$`)
		for _, line := range strings.Split(stdout, "\n") {
			if f := strings.Fields(line); len(f) == 4 && strings.HasPrefix(f[0], "new-") && f[1] == "(new)" && f[2] == "1" {
				joiners++
			}
			if title.MatchString(line) {
				results++
			}
		}
		// Every result is shown: range's 20 and roundrobin's 20, and at
		// least one each for the sticky assignors, each with its three
		// joiners holding one partition.
		if results < 42 || joiners != 3*results {
			t.Errorf("%d joiner rows with one partition each in %d results, want 3 per result and at least 42 results:\n%s", joiners, results, stdout)
		}
	})

	t.Run("KIP-848 group shows current and target, then the broker's assignors", func(t *testing.T) {
		code, stdout, stderr := runKgroups(t, "-b", c.brokers, "simulate", sim848, "--join", "1", "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc simJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if doc.Type != "consumer" || len(doc.Members) != 2 {
			t.Fatalf("type %q, %d members; want consumer, 2:\n%s", doc.Type, len(doc.Members), stdout)
		}
		for _, m := range doc.Members {
			if len(m.Current) != 1 || len(m.Current[0].Partitions) != 3 || !reflect.DeepEqual(m.Current, m.Target) {
				t.Errorf("member %s: current %+v target %+v; want the same 3 partitions", m.MemberID, m.Current, m.Target)
			}
		}
		// The group's own server assignor first (range), then uniform;
		// either way six partitions over three members, two each, and
		// each member that stays keeps two of its three under uniform.
		var names []string
		for _, a := range doc.Assignors {
			names = append(names, a.Assignor)
			if a.Error != nil || len(a.Assignment) != 3 {
				t.Errorf("%s: error %v, %d members", a.Assignor, a.Error, len(a.Assignment))
				continue
			}
			for id, tps := range a.Assignment {
				if len(tps) != 1 || tps[0].Topic != "orders" || len(tps[0].Partitions) != 2 {
					t.Errorf("%s: member %s gets %+v, want 2 partitions of orders", a.Assignor, id, tps)
				}
			}
			if a.Assignor == "uniform" && a.Moved != 2 {
				t.Errorf("uniform moves %d partitions, want 2 (one from each member to the joiner)", a.Moved)
			}
		}
		if !reflect.DeepEqual(names, []string{"range", "uniform"}) {
			t.Errorf("assignors %v, want [range uniform]", names)
		}
		code, stdout, _ = runKgroups(t, "-b", c.brokers, "simulate", sim848, "--join", "1")
		for _, want := range []string{"Every member holds its target assignment.", "Predicted by kgroups' models of Kafka 4.2's server assignors after the change (join 1):", "uniform: 2 partitions change process"} {
			if code != 0 || !strings.Contains(stdout, want) {
				t.Errorf("exit %d, output lacks %q:\n%s", code, want, stdout)
			}
		}
		code, stdout, _ = runKgroups(t, "-b", c.brokers, "simulate", sim848, "--join", "1", "--assignor", "uniform", "-o", "json")
		doc = simJSON{}
		if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || len(doc.Assignors) != 1 || doc.Assignors[0].Assignor != "uniform" {
			t.Errorf("--assignor uniform: exit %d, %v:\n%s", code, err, stdout)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			code int
			want string
		}{
			{[]string{"simulate", simRange}, 2, "say what changes: --leave MEMBER... (member ids, or client or instance ids) or --join N"},
			{[]string{"simulate", simRange, "--leave", m0, "--join", "1"}, 2, "give either --leave MEMBER... or --join N, not both"},
			{[]string{"simulate", simRange, "--join", "0"}, 2, "invalid --join 0: give a number of new members from 1 to 1000"},
			{[]string{"simulate", simRange, "--join", "1", "-o", "xml"}, 2, `invalid --output "xml"`},
			{[]string{"simulate", "a", "b", "--join", "1"}, 2, "simulate needs exactly one group name, got 2"},
			{[]string{"simulate", simRange, "--leave", "nobody"}, 1, `member "nobody" is not in group "sim-range"; its members are: ` + strings.Join(c.ids, ", ")},
			{[]string{"simulate", "no-such-group", "--join", "1"}, 1, `group "no-such-group" not found`},
		} {
			code, stdout, stderr := runKgroups(t, append([]string{"-b", c.brokers}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.want)
			}
		}
	})
}
