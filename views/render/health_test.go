package render_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// healthGroups are verdicts as `kgroups health` gives them, a History's
// evaluation through lag.Judge: a healthy group, one with a REWIND and a
// WARN partition, one that never committed and has no member, one whose
// lagging partition has no time lag yet (nor a full window) while the
// other is caught up, and one whose member never commits.
func healthGroups() []lag.Verdict {
	var vs []lag.Verdict
	for _, gh := range []lag.GroupHealth{
		{Group: "fine", Status: lag.StatusOK, Severity: lag.SeverityOK, Complete: true, Observations: 10,
			MaxTimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, ProduceRate: 2, ConsumeRate: 2,
			Partitions: []lag.PartitionHealth{
				{Topic: "t", Partition: 0, Status: lag.StatusOK, Committed: 5, LogEnd: 5, Lag: 0,
					TimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, ProduceRate: 2, ConsumeRate: 2},
			}},
		{Group: "payments", Status: lag.StatusRewind, Severity: lag.SeverityErr, TotalLag: 80, Observations: 10,
			MaxTimeLag: lag.TimeLag{Seconds: 61.23456, Kind: lag.TimeLagInterpolated}, ProduceRate: 1.0 / 3, ConsumeRate: lag.UnknownRate,
			Partitions: []lag.PartitionHealth{
				{Topic: "a", Partition: 1, Status: lag.StatusRewind, Rewind: lag.Rewind{High: 30, Low: 25, At: time.Unix(10, 0)},
					Committed: 25, LogEnd: 100, Lag: 75, TimeLag: lag.TimeLag{Seconds: 61.23456, Kind: lag.TimeLagInterpolated},
					ProduceRate: 1.0 / 3, ConsumeRate: lag.UnknownRate},
				{Topic: "a", Partition: 2, Status: lag.StatusOK, Committed: 10, LogEnd: 10, Lag: 0,
					TimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate},
				{Topic: "b", Partition: 0, Status: lag.StatusWarn, Committed: 1, LogEnd: 6, Lag: 5,
					TimeLag: lag.TimeLag{Kind: lag.TimeLagAtLeast, Seconds: 4}, ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate},
			}},
		{Group: "never", Status: lag.StatusOK, ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate, Complete: true, Observations: 10,
			Partitions: []lag.PartitionHealth{
				{Topic: "t", Partition: 0, Committed: kafka.NoOffset, LogEnd: 9, Lag: kafka.NoOffset, ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate},
			}},
		// A History's maximum is the caught-up partition's 0s.
		{Group: "grown", Status: lag.StatusOK, TotalLag: 500, MaxTimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, Observations: 10,
			ProduceRate: 1, ConsumeRate: 1,
			Partitions: []lag.PartitionHealth{
				{Topic: "t", Partition: 0, Status: lag.StatusOK, Committed: 40, LogEnd: 40, Lag: 0,
					TimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, ProduceRate: 1, ConsumeRate: 1, Observations: 10},
				{Topic: "t", Partition: 1, Status: lag.StatusOK, Committed: 0, LogEnd: 500, Lag: 500,
					ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate, Observations: 1},
			}},
		// A live member has owned t/0 for a full window; nothing committed.
		{Group: "silent", Status: lag.StatusNoCommits, Severity: lag.SeverityWarn, Complete: true, Observations: 10,
			TotalLag: 0, ProduceRate: 4, ConsumeRate: lag.UnknownRate,
			Partitions: []lag.PartitionHealth{
				{Topic: "t", Partition: 0, Status: lag.StatusNoCommits, Committed: kafka.NoOffset, LogEnd: 40, Lag: kafka.NoOffset,
					Owned: true, Uncommitted: true, ProduceRate: 4, ConsumeRate: lag.UnknownRate, Observations: 10},
			}},
	} {
		vs = append(vs, lag.Judge(gh, 10))
	}
	return vs
}

func TestHealthTable(t *testing.T) {
	var b bytes.Buffer
	if err := render.Health(&b, healthGroups(), format.AtLeastUnicode, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	// never has nothing to judge, and grown's new partition is not judged
	// yet, nor is its time lag known: neither is OK, and grown is not 0s
	// behind. silent's member never commits: WARN NO-COMMITS, its lag
	// unknown, not 0.
	assertText(t, "health", b.String(), `GROUP     STATUS           TOTAL-LAG  MAX-TIME-LAG  PRODUCE/S  CONSUME/S
fine      OK                       0            0s        2.0        2.0
payments  ERR REWIND              80         1m01s        0.3          -
never     -                        -             -          -          -
grown     JUDGING 1/10           500             -        1.0        1.0
silent    WARN NO-COMMITS          -             -        4.0          -

GROUP     TOPIC  PARTITION  STATUS      CURRENT-OFFSET  LOG-END-OFFSET  LAG  TIME-LAG  REWIND
payments  a              1  REWIND                  25             100   75     1m01s  30->25
payments  b              0  WARN                     1               6    5       ≥4s  -
silent    t              0  NO-COMMITS               -              40    -         -  -
`)

	// Outside a UTF-8 locale a lower bound is marked ">=".
	b.Reset()
	if err := render.Health(&b, healthGroups()[1:2], format.AtLeastASCII, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "ascii", b.String(), `GROUP     STATUS      TOTAL-LAG  MAX-TIME-LAG  PRODUCE/S  CONSUME/S
payments  ERR REWIND         80         1m01s        0.3          -

GROUP     TOPIC  PARTITION  STATUS  CURRENT-OFFSET  LOG-END-OFFSET  LAG  TIME-LAG  REWIND
payments  a              1  REWIND              25             100   75     1m01s  30->25
payments  b              0  WARN                 1               6    5      >=4s  -
`)

	// Every partition OK: the summary alone.
	b.Reset()
	if err := render.Health(&b, healthGroups()[:1], format.AtLeastUnicode, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	assertText(t, "healthy", b.String(), `GROUP  STATUS  TOTAL-LAG  MAX-TIME-LAG  PRODUCE/S  CONSUME/S
fine   OK              0            0s        2.0        2.0
`)
}

func TestHealthJSON(t *testing.T) {
	var b bytes.Buffer
	if err := render.HealthJSON(&b, healthGroups()[1:]); err != nil {
		t.Fatal(err)
	}
	assertText(t, "json", b.String(), `{
  "groups": [
    {
      "group": "payments",
      "verdict": "ERR REWIND",
      "status": "REWIND",
      "severity": "ERR",
      "complete": false,
      "judging": null,
      "totalLag": 80,
      "maxTimeLagSeconds": 61.235,
      "maxTimeLagKind": "interpolated",
      "produceRate": 0.333,
      "consumeRate": null,
      "catchUp": null,
      "partitions": [
        {
          "topic": "a",
          "partition": 1,
          "status": "REWIND",
          "committedOffset": 25,
          "logEndOffset": 100,
          "lag": 75,
          "timeLagSeconds": 61.235,
          "timeLagKind": "interpolated",
          "produceRate": 0.333,
          "consumeRate": null,
          "rewind": {
            "high": 30,
            "low": 25,
            "resetBy": null
          }
        },
        {
          "topic": "a",
          "partition": 2,
          "status": "OK",
          "committedOffset": 10,
          "logEndOffset": 10,
          "lag": 0,
          "timeLagSeconds": 0,
          "timeLagKind": "caught-up",
          "produceRate": null,
          "consumeRate": null,
          "rewind": null
        },
        {
          "topic": "b",
          "partition": 0,
          "status": "WARN",
          "committedOffset": 1,
          "logEndOffset": 6,
          "lag": 5,
          "timeLagSeconds": 4,
          "timeLagKind": "at-least",
          "produceRate": null,
          "consumeRate": null,
          "rewind": null
        }
      ]
    },
    {
      "group": "never",
      "verdict": null,
      "status": "OK",
      "severity": "OK",
      "complete": true,
      "judging": null,
      "totalLag": null,
      "maxTimeLagSeconds": null,
      "maxTimeLagKind": "unknown",
      "produceRate": null,
      "consumeRate": null,
      "catchUp": null,
      "partitions": [
        {
          "topic": "t",
          "partition": 0,
          "status": "OK",
          "committedOffset": null,
          "logEndOffset": 9,
          "lag": null,
          "timeLagSeconds": null,
          "timeLagKind": "unknown",
          "produceRate": null,
          "consumeRate": null,
          "rewind": null
        }
      ]
    },
    {
      "group": "grown",
      "verdict": "JUDGING 1/10",
      "status": "OK",
      "severity": "OK",
      "complete": false,
      "judging": {
        "observations": 1,
        "window": 10,
        "reason": "watched 1 of the 10 observations a verdict needs"
      },
      "totalLag": 500,
      "maxTimeLagSeconds": null,
      "maxTimeLagKind": "unknown",
      "produceRate": 1,
      "consumeRate": 1,
      "catchUp": null,
      "partitions": [
        {
          "topic": "t",
          "partition": 0,
          "status": "OK",
          "committedOffset": 40,
          "logEndOffset": 40,
          "lag": 0,
          "timeLagSeconds": 0,
          "timeLagKind": "caught-up",
          "produceRate": 1,
          "consumeRate": 1,
          "rewind": null
        },
        {
          "topic": "t",
          "partition": 1,
          "status": "OK",
          "committedOffset": 0,
          "logEndOffset": 500,
          "lag": 500,
          "timeLagSeconds": null,
          "timeLagKind": "unknown",
          "produceRate": null,
          "consumeRate": null,
          "rewind": null
        }
      ]
    },
    {
      "group": "silent",
      "verdict": "WARN NO-COMMITS",
      "status": "NO-COMMITS",
      "severity": "WARN",
      "complete": true,
      "judging": null,
      "totalLag": null,
      "maxTimeLagSeconds": null,
      "maxTimeLagKind": "unknown",
      "produceRate": 4,
      "consumeRate": null,
      "catchUp": null,
      "partitions": [
        {
          "topic": "t",
          "partition": 0,
          "status": "NO-COMMITS",
          "committedOffset": null,
          "logEndOffset": 40,
          "lag": null,
          "timeLagSeconds": null,
          "timeLagKind": "unknown",
          "produceRate": 4,
          "consumeRate": null,
          "rewind": null
        }
      ]
    }
  ]
}
`)

	b.Reset()
	if err := render.HealthJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	assertText(t, "empty", b.String(), "{\n  \"groups\": []\n}\n")
}

// TestHealthJSONCatchUp: the group's catch-up in the JSON keeps numbers,
// never an absurd one: an estimate past a day is a day, marked capped.
func TestHealthJSONCatchUp(t *testing.T) {
	vs := []lag.Verdict{
		{GroupHealth: lag.GroupHealth{Group: "slow", CatchUp: lag.CatchUp{State: lag.CatchingUp, Seconds: lag.MaxCatchUpSeconds, Capped: true}}},
		{GroupHealth: lag.GroupHealth{Group: "soon", CatchUp: lag.CatchUp{State: lag.CatchingUp, Seconds: 245.12345}}},
		{GroupHealth: lag.GroupHealth{Group: "behind", CatchUp: lag.CatchUp{State: lag.FallingBehind, Behind: 5.9}}},
		{GroupHealth: lag.GroupHealth{Group: "pace", CatchUp: lag.CatchUp{State: lag.KeepingUp}}},
	}
	var b bytes.Buffer
	if err := render.HealthJSON(&b, vs); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Groups []struct {
			CatchUp json.RawMessage `json:"catchUp"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"state":"catching-up","seconds":86400,"capped":true,"behindRate":null}`,
		`{"state":"catching-up","seconds":245.123,"capped":false,"behindRate":null}`,
		`{"state":"falling-behind","seconds":null,"capped":false,"behindRate":5.9}`,
		`{"state":"keeping-up","seconds":null,"capped":false,"behindRate":null}`,
	}
	for i, g := range doc.Groups {
		var c bytes.Buffer
		if err := json.Compact(&c, g.CatchUp); err != nil {
			t.Fatal(err)
		}
		if c.String() != want[i] {
			t.Errorf("group %d catchUp = %s, want %s", i, c.String(), want[i])
		}
	}
}
