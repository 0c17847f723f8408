package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render/rendertest"
)

// forgedTopic is a topic name that, written raw into CSV, forges a row.
const forgedTopic = "inj\nplain,0,0"

// TestHostileInvisiblesAndRecords drives the CLI against a cluster whose
// group ids are the look-alikes and line breaks the sanitizer escapes
// (rendertest.Invisible), whose records are built to make a renderer
// explode (9,999 and 32,499 nested arrays, hostile keys, 150 hostile
// headers), and one of whose topics is named to forge a CSV row. Nothing
// printed may act on a terminal, output stays bounded, and the texts are
// exact.
func TestHostileInvisiblesAndRecords(t *testing.T) {
	isolateConfig(t)
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "records", 1)
	c.CreateTopic(t, forgedTopic, 1)
	prod, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	nested := []byte(strings.Repeat("[", 9999) + strings.Repeat("]", 9999))
	deep := []byte(strings.Repeat("[", 32_499) + strings.Repeat("]", 32_499))
	var headers []kgo.RecordHeader
	for i := range 150 {
		headers = append(headers, kgo.RecordHeader{Key: rendertest.Hostile[i%len(rendertest.Hostile)], Value: []byte(rendertest.Invisible[i%len(rendertest.Invisible)])})
	}
	for _, r := range []*kgo.Record{
		{Topic: "records", Key: []byte("k\x1b]52;c;eA==\x07\u034f"), Value: nested, Headers: headers},
		{Topic: "records", Key: []byte(strings.Repeat("K", 5000)), Value: deep},
		{Topic: forgedTopic, Value: []byte("v")},
	} {
		if err := prod.ProduceSync(context.Background(), r).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range rendertest.Invisible {
		c.Commit(t, g, map[string]map[int32]int64{"records": {0: 0}, forgedTopic: {0: 1}})
	}
	brokers := strings.Join(c.Addrs, ",")
	kgSafe := func(t *testing.T, args ...string) (int, string, string) {
		t.Helper()
		code, stdout, stderr := kg(t, append([]string{"-b", brokers}, args...)...)
		what := abbreviate(strings.Join(args, " "))
		assertTerminalSafe(t, what+": stdout", stdout)
		assertTerminalSafe(t, what+": stderr", stderr)
		return code, stdout, stderr
	}

	t.Run("list and describe", func(t *testing.T) {
		code, stdout, stderr := kgSafe(t, "list")
		expectRun(t, code, stderr, 0, "")
		for _, g := range rendertest.Invisible {
			if !strings.Contains(stdout, "\n"+format.Sanitize(g)+" ") {
				t.Errorf("list lacks %q:\n%s", g, stdout)
			}
		}
		for _, g := range rendertest.Invisible {
			code, _, stderr := kgSafe(t, "describe", "--", g)
			expectRun(t, code, stderr, 0, "Consumer group '"+format.Sanitize(g)+"' has no active members.\n")
		}
		code, _, stderr = kgSafe(t, "describe", "-", "--", "cid-nl-line1\nline2")
		if code != 1 || !strings.Contains(stderr, `kgroups: group "-" not found`) {
			t.Errorf("describe of a missing group: exit %d %q", code, stderr)
		}
	})

	t.Run("peek stays bounded", func(t *testing.T) {
		code, stdout, stderr := kgSafe(t, "peek", "ev\u034fil", "--topic", "records:0", "--offset", "0", "-n", "2")
		expectRun(t, code, stderr, 0, "")
		if len(stdout) > 256<<10 {
			t.Fatalf("peek printed %d bytes", len(stdout))
		}
		for _, want := range []string{
			"key          k\\x1b]52;c;eA==\\x07\\u034f\n",
			"value        json, 19998 bytes\n",
			"\n" + strings.Repeat("  ", 33) + "[…]\n",
			"\n  … elided: 1 container nested deeper than 32 levels (19934 bytes)\n",
			"\n             … elided: 50 more headers\n",
			"key          " + strings.Repeat("K", 1024) + " … (1024 of 5000 bytes shown)\n",
			"value        text, 64998 bytes\n",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("peek lacks %q", abbreviate(want))
			}
		}
		// JSON keeps the exact bytes.
		code, stdout, stderr = kgSafe(t, "peek", "ev\u034fil", "--topic", "records:0", "--offset", "0", "-n", "2", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		var doc struct {
			Partitions []struct {
				Records []struct {
					Key   string `json:"key"`
					Value string `json:"value"`
				} `json:"records"`
			} `json:"partitions"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Partitions) != 1 || len(doc.Partitions[0].Records) != 2 {
			t.Fatalf("peek -o json: %v", err)
		}
		if r := doc.Partitions[0].Records; r[0].Value != string(nested) || r[1].Value != string(deep) || r[0].Key != "k\x1b]52;c;eA==\x07\u034f" {
			t.Error("peek -o json changed the bytes")
		}
	})

	t.Run("csv quotes and round-trips", func(t *testing.T) {
		// The export goes to a file here (not a terminal): exact bytes,
		// the forged name one quoted field.
		code, stdout, stderr := kgSafe(t, "reset", "lone\u200dzwj", "--to-earliest", "--all-topics", "--export")
		expectRun(t, code, stderr, 0, "1 of 2 partitions change; 1 record will be consumed again, 0 skipped.\nDry run: nothing was changed. Add --execute to apply.\n")
		if want := "\"inj\nplain,0,0\",0,0\nrecords,0,0\n"; stdout != want {
			t.Fatalf("--export = %q, want %q", stdout, want)
		}
		file := filepath.Join(t.TempDir(), "offsets.csv")
		if err := os.WriteFile(file, []byte(stdout), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, stderr = kgSafe(t, "reset", "lone\u200dzwj", "--from-file", file)
		// Read back, it is the one row it was, refused for its name.
		want := "kgroups: --from-file " + file + ": 1 bad line (" + "each line is topic,partition,offset (one group) or group,topic,partition,offset (several groups), with no header line, as kafka-consumer-groups.sh --export writes it" + "):\n  line 1: the topic name contains '\\n'; topic names use only letters, digits, '.', '_' and '-'\nRun 'kgroups reset --help' for usage.\n"
		if code != 2 || stderr != want {
			t.Errorf("--from-file of the export: exit %d\n%q\nwant\n%q", code, stderr, want)
		}
	})

	t.Run("outside a UTF-8 locale", func(t *testing.T) {
		// main sets the rule from the locale; run is called here.
		t.Setenv("LC_ALL", "C")
		format.SetUTF8(false)
		defer format.SetUTF8(true)
		c.Commit(t, "\u041b\u045c\u049d-\u6d88", map[string]map[int32]int64{"records": {0: 1}})
		for _, args := range [][]string{{"list"}, {"describe", "--all-groups"}, {"peek", "ev\u034fil", "--topic", "records:0", "--offset", "0"}} {
			code, stdout, stderr := kgSafe(t, args...)
			expectRun(t, code, stderr, 0, stderr)
			for _, out := range []string{stdout, stderr} {
				for i := 0; i < len(out); i++ {
					if out[i] >= 0x80 {
						t.Fatalf("%v wrote byte %#x at %d: %s", args, out[i], i, abbreviate(out[max(0, i-20):min(len(out), i+20)]))
					}
				}
			}
			if args[0] == "list" && !strings.Contains(stdout, `\u041b\u045c\u049d-\u6d88`) {
				t.Errorf("list lacks the escaped name:\n%s", stdout)
			}
		}
	})
}
