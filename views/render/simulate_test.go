package render_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/render"
)

// simRangeGroup is a Stable classic group on the range assignor: members a,
// b and c own orders 0-1, 2-3 and 4-5, with the join metadata kgo sends
// (which identifies them as franz-go, whatever their client ids).
func simRangeGroup() *kafka.Group {
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: "range"}
	for i, id := range []string{"a", "b", "c"} {
		m := kafka.Member{MemberID: id, ClientID: "client-" + id, Host: "/10.0.0.1", Subscribed: []string{"orders"},
			Assignment: []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{int32(2 * i), int32(2*i + 1)}}}}
		m.JoinMetadata = kgo.RangeBalancer().JoinGroupMetadata([]string{"orders"}, nil, 3)
		g.Members = append(g.Members, m)
	}
	return g
}

func TestSimulationJSON(t *testing.T) {
	g := simRangeGroup()
	sim, err := rebalance.Simulate(g, map[string]int32{"orders": 6}, rebalance.Change{Leave: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	sim.Predictions = sim.Predictions[:1] // range only: the others' choices are the balancer's
	var buf bytes.Buffer
	if err := render.SimulationJSON(&buf, g, sim); err != nil {
		t.Fatal(err)
	}
	want := `{
  "group": "orders-app",
  "change": "leave b",
  "type": "classic",
  "leader": {
    "impl": "java",
    "protocol": "range",
    "partial": false,
    "label": "assignor range (Java/franz-go leader)"
  },
  "assignors": [
    {
      "assignor": "range",
      "impl": "java",
      "confidence": "exact",
      "note": "the group's assignor",
      "moved": 2,
      "rounds": 1,
      "movedByProcess": 2,
      "rejoined": 0,
      "moves": [
        {
          "topic": "orders",
          "partition": 2,
          "from": "b",
          "to": "a"
        },
        {
          "topic": "orders",
          "partition": 3,
          "from": "b",
          "to": "c"
        }
      ],
      "assignment": {
        "a": [
          {
            "topic": "orders",
            "partitions": [
              0,
              1,
              2
            ]
          }
        ],
        "c": [
          {
            "topic": "orders",
            "partitions": [
              3,
              4,
              5
            ]
          }
        ]
      },
      "places": 1,
      "placesOf": 1,
      "results": [
        {
          "moved": 2,
          "rounds": 1,
          "movedByProcess": 2,
          "rejoined": 0,
          "moves": [
            {
              "topic": "orders",
              "partition": 2,
              "from": "b",
              "to": "a"
            },
            {
              "topic": "orders",
              "partition": 3,
              "from": "b",
              "to": "c"
            }
          ],
          "assignment": {
            "a": [
              {
                "topic": "orders",
                "partitions": [
                  0,
                  1,
                  2
                ]
              }
            ],
            "c": [
              {
                "topic": "orders",
                "partitions": [
                  3,
                  4,
                  5
                ]
              }
            ]
          }
        }
      ],
      "worst": null,
      "error": null
    }
  ]
}
`
	if got := buf.String(); got != want {
		t.Fatalf("json:\n%s\nwant\n%s", got, want)
	}
}

func TestSimulation(t *testing.T) {
	g := simRangeGroup()
	sim, err := rebalance.Simulate(g, map[string]int32{"orders": 6}, rebalance.Change{Join: 1})
	if err != nil {
		t.Fatal(err)
	}
	sim.Predictions = sim.Predictions[:2]
	var buf bytes.Buffer
	if err := render.Simulation(&buf, g, sim, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	want := `Group orders-app (classic, Stable, assignor range (Java/franz-go leader), 3 members): join 1

ASSIGNOR    CONFIDENCE   MOVED  ROUNDS  MEMBERS  NOTE
range       approximate    1–5       1        4  the group's assignor; joiners' member ids decide the result: 4 results in 4 places run
roundrobin  approximate    4–5       1        4  if the group used roundrobin; joiners' member ids decide the result: 4 results in 4 places run

range, result 1 of 4: 1 partition changes process
TOPIC   PARTITION  FROM  TO
orders          4  c     new-1
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(0,1)
b       client-b             2  orders(2,3)
c       client-c             1  orders(5)
new-1   (new)                1  orders(4)

range, result 2 of 4: 1 partition changes process
TOPIC   PARTITION  FROM  TO
orders          5  c     new-1
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(0,1)
b       client-b             2  orders(2,3)
c       client-c             1  orders(4)
new-1   (new)                1  orders(5)

range, result 3 of 4: 3 partitions change process
TOPIC   PARTITION  FROM  TO
orders          2  b     new-1
orders          3  b     new-1
orders          4  c     b
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(0,1)
b       client-b             1  orders(4)
c       client-c             1  orders(5)
new-1   (new)                2  orders(2,3)

range, result 4 of 4: 5 partitions change process
TOPIC   PARTITION  FROM  TO
orders          0  a     new-1
orders          1  a     new-1
orders          2  b     a
orders          3  b     a
orders          4  c     b
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(2,3)
b       client-b             1  orders(4)
c       client-c             1  orders(5)
new-1   (new)                2  orders(0,1)

roundrobin, result 1 of 4: 4 partitions change process
TOPIC   PARTITION  FROM  TO
orders          0  a     new-1
orders          3  b     c
orders          4  c     new-1
orders          5  c     a
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(1,5)
b       client-b             1  orders(2)
c       client-c             1  orders(3)
new-1   (new)                2  orders(0,4)

roundrobin, result 2 of 4: 4 partitions change process
TOPIC   PARTITION  FROM  TO
orders          1  a     new-1
orders          3  b     c
orders          4  c     a
orders          5  c     new-1
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(0,4)
b       client-b             1  orders(2)
c       client-c             1  orders(3)
new-1   (new)                2  orders(1,5)

roundrobin, result 3 of 4: 5 partitions change process
TOPIC   PARTITION  FROM  TO
orders          1  a     b
orders          2  b     new-1
orders          3  b     c
orders          4  c     a
orders          5  c     b
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(0,4)
b       client-b             2  orders(1,5)
c       client-c             1  orders(3)
new-1   (new)                1  orders(2)

roundrobin, result 4 of 4: 5 partitions change process
TOPIC   PARTITION  FROM  TO
orders          1  a     b
orders          2  b     c
orders          3  b     new-1
orders          4  c     a
orders          5  c     b
MEMBER  CLIENT-ID  #PARTITIONS  ASSIGNMENT
a       client-a             2  orders(0,4)
b       client-b             2  orders(1,5)
c       client-c             1  orders(2)
new-1   (new)                1  orders(3)
`
	if got := buf.String(); got != want {
		t.Fatalf("table:\n%s\nwant\n%s", got, want)
	}
}

// TestSimulationRecordedKafkaJS prints the simulation of a recorded
// kafkajs 2.2.4 group (kafka/rebalance/testdata/kafkajs) losing a member:
// the header names the kafkajs leader, kafkajs's own assignor comes first
// and exact, the Java rows are approximate what-ifs.
func TestSimulationRecordedKafkaJS(t *testing.T) {
	b, err := os.ReadFile("../../kafka/rebalance/testdata/kafkajs/2-third-joins.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Group, Protocol string
		Members         []struct {
			MemberID   string `json:"member_id"`
			ClientID   string `json:"client_id"`
			Metadata   []byte `json:"metadata"`
			Assignment []byte `json:"assignment"`
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	g := &kafka.Group{Name: f.Group, Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: f.Protocol}
	for _, fm := range f.Members {
		a := kmsg.NewConsumerMemberAssignment()
		if err := a.ReadFrom(fm.Assignment); err != nil {
			t.Fatal(err)
		}
		m := kafka.Member{MemberID: fm.MemberID, ClientID: fm.ClientID, JoinMetadata: fm.Metadata}
		for _, tp := range a.Topics {
			slices.Sort(tp.Partitions)
			m.Assignment = append(m.Assignment, kafka.TopicPartitions{Topic: tp.Topic, Partitions: tp.Partitions})
		}
		slices.SortFunc(m.Assignment, func(x, y kafka.TopicPartitions) int { return strings.Compare(x.Topic, y.Topic) })
		g.Members = append(g.Members, m)
	}
	sim, err := rebalance.Simulate(g, map[string]int32{"js-orders": 6, "js-events": 4}, rebalance.Change{Leave: []string{"kafkajs-a99c1eafbbf461ee5cc416c4b86a18f9"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.Simulation(&buf, g, sim, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"Group js-rr (classic, Stable, assignor RoundRobinAssigner (kafkajs leader), 3 members): leave kafkajs-a99c1eafbbf461ee5cc416c4b86a18f9\n",
		"ASSIGNOR            CONFIDENCE   MOVED  ROUNDS  MEMBERS  NOTE\n",
		"RoundRobinAssigner  exact            7       1        2  the group's assignor\n",
		"range               approximate      ",
		"cooperative-sticky  approximate      ",
		"RoundRobinAssigner: 7 partitions change process\n",
		"kafkajs-0212e77429f3178247db92b218e77e0f  kafkajs              5  js-events(0,2),js-orders(0,2,4)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	buf.Reset()
	if err := render.SimulationJSON(&buf, g, sim); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Leader    struct{ Impl, Label string }
		Assignors []struct{ Assignor, Impl, Confidence string }
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Leader.Impl != "kafkajs" || len(doc.Assignors) != 5 || doc.Assignors[0].Assignor != "RoundRobinAssigner" ||
		doc.Assignors[0].Impl != "kafkajs" || doc.Assignors[0].Confidence != "exact" || doc.Assignors[1].Confidence != "approximate" {
		t.Fatalf("json %+v", doc)
	}
}

// TestSimulationStaticRejoin: when the member that leaves is static, the
// table and the JSON say what happens if it rejoins in time instead,
// counted by process; for a dynamic member they say nothing of it.
func TestSimulationStaticRejoin(t *testing.T) {
	g := simRangeGroup()
	g.Members[1].InstanceID = "orders-b"
	sim, err := rebalance.Simulate(g, map[string]int32{"orders": 6}, rebalance.Change{Leave: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	var text, doc bytes.Buffer
	if err := render.Simulation(&text, g, sim, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	const note = "If the static member that leaves rejoins under its instance id within the session timeout, the coordinator hands back its partitions without a rebalance: 0 partitions change process, 1 member rejoins with a new id.\n"
	if !strings.Contains(text.String(), note) || !strings.Contains(text.String(), "\nrange: 2 partitions change process\n") {
		t.Fatalf("table lacks the note or the range line:\n%s", text.String())
	}
	if err := render.SimulationJSON(&doc, g, sim); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.String(), "\"staticRejoin\": {\n    \"movedByProcess\": 0,\n    \"rejoined\": 1\n  }") {
		t.Fatalf("JSON lacks staticRejoin:\n%s", doc.String())
	}

	g.Members[1].InstanceID = ""
	sim, err = rebalance.Simulate(g, map[string]int32{"orders": 6}, rebalance.Change{Leave: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	doc.Reset()
	if err := render.Simulation(&text, g, sim, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	if err := render.SimulationJSON(&doc, g, sim); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "static member") || strings.Contains(doc.String(), "staticRejoin") {
		t.Fatalf("a dynamic member's leave mentions a static rejoin:\n%s\n%s", text.String(), doc.String())
	}
}

// TestSimulationJSONRange: a joiner whose place decides the result gives
// the best place's figures, every result best first, and the worst
// place's.
func TestSimulationJSONRange(t *testing.T) {
	g := simRangeGroup()
	sim, err := rebalance.Simulate(g, map[string]int32{"orders": 6}, rebalance.Change{Join: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.SimulationJSON(&buf, g, sim); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Assignors []struct {
			Assignor       string `json:"assignor"`
			Confidence     string `json:"confidence"`
			MovedByProcess int    `json:"movedByProcess"`
			Places         int    `json:"places"`
			PlacesOf       int    `json:"placesOf"`
			Results        []struct {
				MovedByProcess int `json:"movedByProcess"`
			} `json:"results"`
			Worst *struct {
				MovedByProcess int                                 `json:"movedByProcess"`
				Assignment     map[string][]struct{ Topic string } `json:"assignment"`
			} `json:"worst"`
		} `json:"assignors"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Assignors[0]
	if r.Assignor != "range" || r.Confidence != "approximate" || r.MovedByProcess != 1 || r.Places != 4 || r.PlacesOf != 4 ||
		r.Worst == nil || r.Worst.MovedByProcess != 5 || len(r.Worst.Assignment) != 4 {
		t.Fatalf("range row %+v (worst %+v)", r, r.Worst)
	}
	// Every result, best first: the four places give four.
	var moved []int
	for _, x := range r.Results {
		moved = append(moved, x.MovedByProcess)
	}
	if !slices.Equal(moved, []int{1, 1, 3, 5}) {
		t.Fatalf("range results move %v, want [1 1 3 5]", moved)
	}
}
