package reset_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
)

// The receipt on disk is a contract with every kgroups that will read it:
// this is its exact text, field order and indentation included.
func TestReceiptBytes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: topic("orders")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	got, err := os.ReadFile(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	cluster, _ := json.MarshalIndent(e.c.Addrs, "  ", "  ")
	want := `{
  "version": 1,
  "action": "reset",
  "cluster": ` + string(cluster) + `,
  "clusterId": "` + e.clusterID(t) + `",
  "context": "test",
  "group": "g",
  "time": "2024-01-01T01:00:00Z",
  "user": "tester",
  "checksum": "SUM",
  "signature": "SIG",
  "scenario": "--to-earliest",
  "scope": "--topic orders",
  "groupState": "Empty",
  "offsets": [
    {
      "topic": "orders",
      "partition": 0,
      "before": 5,
      "after": 0
    },
    {
      "topic": "orders",
      "partition": 1,
      "before": 10,
      "after": 0
    },
    {
      "topic": "orders",
      "partition": 2,
      "before": null,
      "after": 2
    }
  ]
}
`
	// The checksum (SUM above) is the SHA-256 of the rest, compacted, as
	// docs/cli.md#receipt-checksums-and-signatures says.
	var compact bytes.Buffer
	unsealed := strings.Replace(want, "  \"checksum\": \"SUM\",\n", "", 1)
	if err := json.Compact(&compact, []byte(strings.Replace(unsealed, "  \"signature\": \"SIG\",\n", "", 1))); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(compact.Bytes())
	want = strings.Replace(want, "SUM", "sha256:"+hex.EncodeToString(sum[:]), 1)
	// The signature (SIG) is the HMAC-SHA256, with the key in the state
	// directory, of the rest with the checksum, compacted.
	keyText, err := os.ReadFile(filepath.Join(filepath.Dir(e.dir), "receipts.key"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(keyText)))
	if err != nil || len(key) != 32 {
		t.Fatalf("key %q: %v", keyText, err)
	}
	compact.Reset()
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

// A receipt written by an earlier kgroups still loads, and undoing it
// restores its "before" offsets.
func TestOldReceiptLoads(t *testing.T) {
	path := "testdata/20240101T010000.000Z-reset-g.json"
	r, err := reset.LoadReceipt(path)
	if err != nil {
		t.Fatal(err)
	}
	five, zero, two := int64(5), int64(0), int64(2)
	want := &reset.Receipt{Path: path}
	want.Version, want.Action, want.Cluster, want.Context, want.Group = 1, "reset", []string{"kafka-1:9092", "kafka-2:9092"}, "prod", "g"
	want.Time, want.User = time.Date(2024, 1, 1, 1, 0, 0, 0, time.UTC), "alice"
	want.Scenario, want.Scope, want.GroupState = "--to-earliest", "--topic orders", "Empty"
	want.Offsets = []reset.ReceiptOffset{
		{Topic: "orders", Partition: 0, Before: &five, After: &zero},
		{Topic: "orders", Partition: 2, Before: nil, After: &two},
	}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("receipt =\n%+v\nwant\n%+v", r, want)
	}
	sc := reset.UndoScenario(r)
	wantSc := reset.Scenario{Kind: reset.Undo, Source: path, Rows: []reset.FileRow{
		{Topic: "orders", Partition: 0, Offset: 5},
		{Topic: "orders", Partition: 2, Offset: kafka.NoOffset},
	}}
	if !reflect.DeepEqual(sc, wantSc) {
		t.Fatalf("undo scenario =\n%+v\nwant\n%+v", sc, wantSc)
	}
}

// undo refuses a member removal's record with the reason: it has nothing
// to restore.
func TestLoadReceiptRefusesARemoval(t *testing.T) {
	path := "testdata/20260301T093000.000Z-remove-members-app.json"
	_, err := reset.LoadReceipt(path)
	want := "receipt " + path + " records members removed from a group: it has no offsets to restore, and removed members rejoin by themselves"
	if err == nil || err.Error() != want {
		t.Fatalf("LoadReceipt of a removal record: %v\nwant %s", err, want)
	}
}
