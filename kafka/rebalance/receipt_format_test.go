package rebalance

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/receipt"
)

// The removal receipt on disk, exactly: field order, indentation and the
// members as they were, removed or not.
func TestRemovalReceiptBytes(t *testing.T) {
	g := abc()
	g.Members[2].InstanceID = "c-0"
	g.Members[1].Host = "/10.0.0.2"
	p, err := PlanRemoval(g, Selection{MemberIDs: []string{"a", "c"}}, "stuck")
	if err != nil {
		t.Fatal(err)
	}
	r := p.Receipt([]string{"kafka-1:9092"}, "prod", time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC))
	r.User = "alice"
	state := t.TempDir()
	dir := filepath.Join(state, "receipts")
	key := bytes.Repeat([]byte{0x5a}, 32)
	if err := os.WriteFile(filepath.Join(state, receipt.KeyFile), []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path, err := receipt.Write(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "20260301T093000.000Z-remove-members-app.json"); path != want {
		t.Fatalf("path %s, want %s", path, want)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "action": "remove-members",
  "cluster": [
    "kafka-1:9092"
  ],
  "context": "prod",
  "group": "app",
  "time": "2026-03-01T09:30:00Z",
  "user": "alice",
  "checksum": "sha256:3e40f7f4435730583a26e82a1ea0c0d20d4ba325582aaa902de50132bce54838",
  "signature": "SIG",
  "reason": "stuck",
  "groupType": "classic",
  "groupState": "Stable",
  "assignor": "range",
  "members": [
    {
      "memberId": "a",
      "clientId": "ca",
      "host": "/10.0.0.1",
      "assignment": [
        {
          "topic": "t",
          "partitions": [
            0,
            1
          ]
        }
      ],
      "removed": true,
      "method": "member-id"
    },
    {
      "memberId": "b",
      "clientId": "cb",
      "host": "/10.0.0.2",
      "assignment": [
        {
          "topic": "t",
          "partitions": [
            2,
            3
          ]
        }
      ],
      "removed": false
    },
    {
      "memberId": "c",
      "instanceId": "c-0",
      "clientId": "cc",
      "host": "/10.0.0.1",
      "assignment": [
        {
          "topic": "t",
          "partitions": [
            4,
            5
          ]
        }
      ],
      "removed": true,
      "method": "instance-id"
    }
  ]
}
`
	// The signature is the HMAC-SHA256 with the key of the rest,
	// compacted.
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(strings.Replace(want, "  \"signature\": \"SIG\",\n", "", 1))); err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	m.Write(compact.Bytes())
	want = strings.Replace(want, "SIG", "hmac-sha256:"+hex.EncodeToString(m.Sum(nil)), 1)
	if string(got) != want {
		t.Fatalf("receipt =\n%s\nwant\n%s", got, want)
	}
}
