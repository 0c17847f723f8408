package render_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/render"
)

// staticGroup is a classic group with one static member in a rack, one
// committed partition nobody owns and a commit carrying a leader epoch and
// metadata.
func staticGroup() *kafka.Group {
	g := ordersGroup()
	g.Name = "static"
	g.Members = g.Members[1:2]
	g.Partitions = []kafka.PartitionOffsets{g.Partitions[0], g.Partitions[2], g.Partitions[4]}
	return g
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := render.JSON(&b, []*kafka.Group{newGroup(), idleGroup(), staticGroup(), brokenGroup()}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "json", b.String(), `{
  "groups": [
    {
      "group": "k848",
      "type": "consumer",
      "protocolType": "consumer",
      "state": "Reconciling",
      "assignor": "uniform",
      "groupEpoch": 4,
      "assignmentEpoch": 4,
      "coordinator": {
        "id": 2,
        "host": "127.0.0.1",
        "port": 40002
      },
      "offsetsPartition": 40,
      "members": [
        {
          "memberId": "Zx9",
          "instanceId": null,
          "clientId": "svc",
          "host": "/10.0.0.9",
          "rack": null,
          "subscribedTopics": [
            "payments"
          ],
          "subscribedRegex": null,
          "assignment": [
            {
              "topic": "payments",
              "partitions": [
                0,
                1
              ]
            }
          ],
          "memberEpoch": 3,
          "targetAssignment": [
            {
              "topic": "payments",
              "partitions": [
                1
              ]
            }
          ]
        }
      ],
      "partitions": [
        {
          "topic": "payments",
          "partition": 0,
          "committedOffset": 3,
          "leaderEpoch": null,
          "metadata": "",
          "logStartOffset": 0,
          "logEndOffset": 7,
          "lag": 4,
          "memberId": "Zx9",
          "clientId": "svc",
          "host": "/10.0.0.9",
          "error": null
        },
        {
          "topic": "payments",
          "partition": 1,
          "committedOffset": null,
          "leaderEpoch": null,
          "metadata": "",
          "logStartOffset": 900,
          "logEndOffset": 1234,
          "lag": null,
          "memberId": "Zx9",
          "clientId": "svc",
          "host": "/10.0.0.9",
          "error": null
        }
      ],
      "totalLag": 4,
      "error": null
    },
    {
      "group": "idle",
      "type": "classic",
      "protocolType": "consumer",
      "state": "Empty",
      "assignor": "",
      "groupEpoch": null,
      "assignmentEpoch": null,
      "coordinator": {
        "id": 0,
        "host": "127.0.0.1",
        "port": 40000
      },
      "offsetsPartition": 3,
      "members": [],
      "partitions": [
        {
          "topic": "orders",
          "partition": 0,
          "committedOffset": 5,
          "leaderEpoch": null,
          "metadata": "",
          "logStartOffset": 0,
          "logEndOffset": 150,
          "lag": 145,
          "memberId": null,
          "clientId": null,
          "host": null,
          "error": null
        }
      ],
      "totalLag": 145,
      "error": null
    },
    {
      "group": "static",
      "type": "classic",
      "protocolType": "consumer",
      "state": "Stable",
      "assignor": "range",
      "leader": {
        "impl": "unknown",
        "protocol": "range",
        "partial": false,
        "label": "assignor range (leader unknown)"
      },
      "groupEpoch": null,
      "assignmentEpoch": null,
      "coordinator": {
        "id": 1,
        "host": "127.0.0.1",
        "port": 40001
      },
      "offsetsPartition": 12,
      "members": [
        {
          "memberId": "b-1",
          "instanceId": "pod-b",
          "clientId": "app-b",
          "host": "/10.0.0.2",
          "rack": "rack-1",
          "subscribedTopics": [
            "orders",
            "payments"
          ],
          "subscribedRegex": null,
          "assignment": [
            {
              "topic": "orders",
              "partitions": [
                0,
                1
              ]
            },
            {
              "topic": "payments",
              "partitions": [
                0
              ]
            }
          ],
          "memberEpoch": null,
          "targetAssignment": null
        }
      ],
      "partitions": [
        {
          "topic": "orders",
          "partition": 0,
          "committedOffset": 100,
          "leaderEpoch": null,
          "metadata": "",
          "logStartOffset": 0,
          "logEndOffset": 150,
          "lag": 50,
          "memberId": "b-1",
          "clientId": "app-b",
          "host": "/10.0.0.2",
          "error": null
        },
        {
          "topic": "orders",
          "partition": 2,
          "committedOffset": 42,
          "leaderEpoch": null,
          "metadata": "",
          "logStartOffset": 0,
          "logEndOffset": 50,
          "lag": 8,
          "memberId": null,
          "clientId": null,
          "host": null,
          "error": null
        },
        {
          "topic": "payments",
          "partition": 0,
          "committedOffset": 7,
          "leaderEpoch": 3,
          "metadata": "m",
          "logStartOffset": 0,
          "logEndOffset": 7,
          "lag": 0,
          "memberId": "b-1",
          "clientId": "app-b",
          "host": "/10.0.0.2",
          "error": null
        }
      ],
      "totalLag": 58,
      "error": null
    },
    {
      "group": "broken",
      "type": "classic",
      "protocolType": "",
      "state": "Unknown",
      "assignor": "",
      "groupEpoch": null,
      "assignmentEpoch": null,
      "coordinator": null,
      "offsetsPartition": null,
      "members": [],
      "partitions": [],
      "totalLag": null,
      "error": "describe group \"broken\": COORDINATOR_NOT_AVAILABLE"
    }
  ]
}
`)
	if !json.Valid(b.Bytes()) {
		t.Error("output is not valid JSON")
	}
}

func TestJSONNoGroups(t *testing.T) {
	var b bytes.Buffer
	if err := render.JSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	assertText(t, "json", b.String(), "{\n  \"groups\": []\n}\n")
}
