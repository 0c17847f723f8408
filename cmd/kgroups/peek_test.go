package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

var peekTime = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// Hostile bytes written into records: an OSC title sequence, a screen
// clear and a right-to-left override.
const (
	evilKey    = "k\x1b[2J"
	evilHeader = "h\u202e"
	evilValue  = "say \x1b]0;pwned\x07 and \u202eevil text here"
)

// peekCluster has topic orders (one partition) with five records and group
// billing committed at 1, and topic gone whose first 3 of 5 records were
// deleted below billing's commit at 1:
//
//	0 key k0   {"id":0,"ok":true}
//	1 key k1   plain text, header trace=abc
//	2 no key   00 01 ff 41
//	3 evilKey  evilValue, header evilHeader=ESC]0;x BEL
//	4 key k4   100 bytes of x
type peekCluster struct {
	*kafkatest.Cluster
	brokers string
}

func startPeekCluster(t *testing.T) *peekCluster {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.CreateTopic(t, "gone", 1)
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	recs := []*kgo.Record{
		{Key: []byte("k0"), Value: []byte(`{"id":0,"ok":true}`)},
		{Key: []byte("k1"), Value: []byte("plain text"), Headers: []kgo.RecordHeader{{Key: "trace", Value: []byte("abc")}}},
		{Value: []byte{0, 1, 0xff, 'A'}},
		{Key: []byte(evilKey), Value: []byte(evilValue), Headers: []kgo.RecordHeader{{Key: evilHeader, Value: []byte("\x1b]0;x\x07")}}},
		{Key: []byte("k4"), Value: []byte(strings.Repeat("x", 100))},
	}
	for i, r := range recs {
		r.Topic, r.Timestamp = "orders", peekTime.Add(time.Duration(i)*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	c.Produce(t, "gone", 0, 5, peekTime)
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: 1}, "gone": {0: 1}})
	c.Commit(t, "other", map[string]map[int32]int64{"gone": {0: 4}})
	del := kadm.Offsets{}
	del.AddOffset("gone", 0, 3, -1)
	if _, err := c.Admin().DeleteRecords(ctx, del); err != nil {
		t.Fatal(err)
	}
	return &peekCluster{Cluster: c, brokers: strings.Join(c.Addrs, ",")}
}

func (c *peekCluster) kg(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return kg(t, append([]string{"-b", c.brokers}, args...)...)
}

func TestPeekCommand(t *testing.T) {
	c := startPeekCluster(t)

	t.Run("table at the committed offset", func(t *testing.T) {
		code, out, errOut := c.kg(t, "peek", "billing", "--topic", "orders:0", "-n", "3")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		expectText(t, "peek", out, lines(
			"TOPIC orders  PARTITION 0  COMMITTED 1  LOG-START 0  LOG-END 5  LAST-STABLE 5",
			"",
			"offset       1",
			"timestamp    2024-05-06T07:08:10.000Z (CreateTime)",
			"key          k1",
			"headers      trace=abc",
			"size         20 bytes",
			"value        text, 10 bytes",
			"  plain text",
			"",
			"offset       2",
			"timestamp    2024-05-06T07:08:11.000Z (CreateTime)",
			"key          (null)",
			"headers      -",
			"size         4 bytes",
			"value        hex, 4 bytes",
			"  00000000  00 01 ff 41                                       |...A|",
			"",
			"offset       3",
			"timestamp    2024-05-06T07:08:12.000Z (CreateTime)",
			`key          k\x1b[2J`,
			`headers      h\u202e=\x1b]0;x\x07`,
			"size         51 bytes",
			"value        text, 36 bytes",
			`  say \x1b]0;pwned\x07 and \u202eevil text here`,
		))
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("raw control or bidi bytes reached the terminal: %q", out)
		}
	})

	t.Run("json keeps exact bytes", func(t *testing.T) {
		code, out, errOut := c.kg(t, "peek", "billing", "--topic", "orders:0", "-n", "3", "-o", "json")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		expectText(t, "peek json", out, lines(
			`{`,
			`  "group": "billing",`,
			`  "topic": "orders",`,
			`  "partitions": [`,
			`    {`,
			`      "partition": 0,`,
			`      "committedOffset": 1,`,
			`      "startOffset": 1,`,
			`      "logStartOffset": 0,`,
			`      "logEndOffset": 5,`,
			`      "lastStableOffset": 5,`,
			`      "error": null,`,
			`      "records": [`,
			`        {`,
			`          "offset": 1,`,
			`          "timestamp": "2024-05-06T07:08:10Z",`,
			`          "timestampType": "CreateTime",`,
			`          "key": "k1",`,
			`          "keyEncoding": "utf8",`,
			`          "headers": [`,
			`            {`,
			`              "key": "trace",`,
			`              "keyEncoding": "utf8",`,
			`              "value": "abc",`,
			`              "valueEncoding": "utf8"`,
			`            }`,
			`          ],`,
			`          "value": "plain text",`,
			`          "valueEncoding": "utf8",`,
			`          "valueBytes": 10,`,
			`          "valueTruncated": false,`,
			`          "size": 20,`,
			`          "transaction": null`,
			`        },`,
			`        {`,
			`          "offset": 2,`,
			`          "timestamp": "2024-05-06T07:08:11Z",`,
			`          "timestampType": "CreateTime",`,
			`          "key": null,`,
			`          "keyEncoding": null,`,
			`          "headers": [],`,
			`          "value": "AAH/QQ==",`,
			`          "valueEncoding": "base64",`,
			`          "valueBytes": 4,`,
			`          "valueTruncated": false,`,
			`          "size": 4,`,
			`          "transaction": null`,
			`        },`,
			`        {`,
			`          "offset": 3,`,
			`          "timestamp": "2024-05-06T07:08:12Z",`,
			`          "timestampType": "CreateTime",`,
			`          "key": "k\u001b[2J",`,
			`          "keyEncoding": "utf8",`,
			`          "headers": [`,
			`            {`,
			`              "key": "h\u202e",`,
			`              "keyEncoding": "utf8",`,
			`              "value": "\u001b]0;x\u0007",`,
			`              "valueEncoding": "utf8"`,
			`            }`,
			`          ],`,
			`          "value": "say \u001b]0;pwned\u0007 and \u202eevil text here",`,
			`          "valueEncoding": "utf8",`,
			`          "valueBytes": 36,`,
			`          "valueTruncated": false,`,
			`          "size": 51,`,
			`          "transaction": null`,
			`        }`,
			`      ]`,
			`    }`,
			`  ]`,
			`}`,
		))
		var doc struct {
			Partitions []struct {
				Records []struct {
					Key     string
					Value   string
					Headers []struct{ Key, Value string }
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		r := doc.Partitions[0].Records
		if b, _ := base64.StdEncoding.DecodeString(r[1].Value); string(b) != "\x00\x01\xffA" {
			t.Errorf("binary value decodes to %q", b)
		}
		if r[2].Key != evilKey || r[2].Value != evilValue || r[2].Headers[0].Key != evilHeader || r[2].Headers[0].Value != "\x1b]0;x\x07" {
			t.Errorf("hostile record not exact: %+v", r[2])
		}
	})

	t.Run("offset, forced format, truncation", func(t *testing.T) {
		code, out, _ := c.kg(t, "peek", "billing", "--topic", "orders:0", "--offset", "0")
		if code != 0 || !strings.Contains(out, lines("value        json, 18 bytes", "  {", `    "id": 0,`, `    "ok": true`, "  }")) {
			t.Errorf("pretty json: exit %d\n%s", code, out)
		}
		code, out, _ = c.kg(t, "peek", "billing", "--topic", "orders:0", "--offset", "0", "--format", "hex")
		if code != 0 || !strings.Contains(out, lines("value        hex, 18 bytes",
			`  00000000  7b 22 69 64 22 3a 30 2c  22 6f 6b 22 3a 74 72 75  |{"id":0,"ok":tru|`,
			`  00000010  65 7d                                             |e}|`)) {
			t.Errorf("forced hex: exit %d\n%s", code, out)
		}
		code, out, _ = c.kg(t, "peek", "billing", "--topic", "orders:0", "--offset", "0", "--format", "base64")
		if code != 0 || !strings.Contains(out, lines("value        base64, 18 bytes", "  eyJpZCI6MCwib2siOnRydWV9")) {
			t.Errorf("forced base64: exit %d\n%s", code, out)
		}
		code, out, _ = c.kg(t, "peek", "billing", "--topic", "orders:0", "--offset", "4", "--max-bytes", "10")
		if code != 0 || !strings.Contains(out, lines("value        text, 100 bytes", "  xxxxxxxxxx", "  … truncated: 10 of 100 bytes shown")) {
			t.Errorf("truncated: exit %d\n%s", code, out)
		}
		code, out, _ = c.kg(t, "peek", "billing", "--topic", "orders:0", "--offset", "4", "--max-bytes", "10", "-o", "json")
		if code != 0 || !strings.Contains(out, `"value": "xxxxxxxxxx",`) || !strings.Contains(out, `"valueBytes": 100,`) || !strings.Contains(out, `"valueTruncated": true,`) {
			t.Errorf("truncated json: exit %d\n%s", code, out)
		}
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			args   []string
			code   int
			stderr string
		}{
			{[]string{"peek", "other", "--topic", "orders:0"}, 1, `kgroups: orders/0: group "other" has no committed offset on orders/0: give --offset to read elsewhere` + "\n"},
			{[]string{"peek", "nobody", "--topic", "orders:0"}, 1, `kgroups: group "nobody" not found` + "\n"},
			{[]string{"peek", "billing", "--topic", "gone:0"}, 1, "kgroups: gone/0: offset 1 is below the log start 3: the record is gone (deleted by retention or DeleteRecords)\n"},
			{[]string{"peek", "billing", "--topic", "orders:0", "--offset", "9"}, 1, "kgroups: orders/0: offset 9 is beyond the log end 5\n"},
			{[]string{"peek", "billing", "--topic", "orders"}, 2, "kgroups: invalid --topic \"orders\": name the partitions to read, e.g. orders:0 or orders:0,2\nRun 'kgroups peek --help' for usage.\n"},
			{[]string{"peek", "billing", "--topic", "orders:0", "-n", "0"}, 2, "kgroups: invalid -n 0: give 1 to 100 records\nRun 'kgroups peek --help' for usage.\n"},
			{[]string{"peek", "billing", "--topic", "orders:0", "--format", "yaml"}, 2, "kgroups: invalid --format: unknown value format \"yaml\": use text, json, hex or base64\nRun 'kgroups peek --help' for usage.\n"},
			{[]string{"peek", "billing", "--topic", "orders:0", "--max-bytes", "0"}, 2, "kgroups: invalid --max-bytes 0: give 1 or more bytes\nRun 'kgroups peek --help' for usage.\n"},
			{[]string{"peek", "--topic", "orders:0"}, 2, "kgroups: peek needs exactly one group: kgroups peek GROUP --topic TOPIC:P\nRun 'kgroups peek --help' for usage.\n"},
		}
		for _, tc := range cases {
			code, out, errOut := c.kg(t, tc.args...)
			if code != tc.code || errOut != tc.stderr || out != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", tc.args, code, out, errOut, tc.code, tc.stderr)
			}
		}
	})
}

// TestPeekCommandTransactions: a record of an aborted transaction and one
// of a transaction left open, written by real transactional producers, are
// named in the table and in JSON.
func TestPeekCommandTransactions(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "payments", 1)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	produce := func(id, value string, end *kgo.TransactionEndTry) {
		p, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID(id),
			kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.TransactionTimeout(60*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := p.ProduceSync(ctx, &kgo.Record{Topic: "payments", Value: []byte(value)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if end != nil {
			if err := p.EndTransaction(ctx, *end); err != nil {
				t.Fatal(err)
			}
		}
	}
	abort := kgo.TryAbort
	produce("tx-abort", "refund", &abort) // offset 0, marker 1
	produce("tx-open", "charge", nil)     // offset 2, open
	c.Commit(t, "billing", map[string]map[int32]int64{"payments": {0: 0}})
	brokers := strings.Join(c.Addrs, ",")

	code, out, errOut := kg(t, "-b", brokers, "peek", "billing", "--topic", "payments:0", "-n", "2")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "LOG-END 3  LAST-STABLE 2") ||
		!strings.Contains(out, lines("transaction  aborted", "value        text, 6 bytes", "  refund")) ||
		!strings.Contains(out, lines("transaction  open", "value        text, 6 bytes", "  charge")) {
		t.Errorf("table:\n%s", out)
	}
	code, out, _ = kg(t, "-b", brokers, "peek", "billing", "--topic", "payments:0", "-n", "2", "-o", "json")
	var doc struct {
		Partitions []struct {
			LastStableOffset int64
			Records          []struct {
				Offset      int64
				Transaction string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	p := doc.Partitions[0]
	if got := fmt.Sprint(p.LastStableOffset, p.Records); got != "2 [{0 aborted} {2 open}]" {
		t.Errorf("json: %s", got)
	}
}
