package render_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/render"
)

// badName is a group id that is not valid UTF-8.
const badName = "bad\xff\xfename"

// groupFields decodes the "group" and "groupBase64" fields of a document
// (at its top, or of each of its "groups").
func groupFields(t *testing.T, doc []byte) (names []string, b64 []*string) {
	t.Helper()
	type g struct {
		Group       string  `json:"group"`
		GroupBase64 *string `json:"groupBase64"`
	}
	var d struct {
		g
		Groups []g `json:"groups"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("decode: %v\n%s", err, doc)
	}
	all := d.Groups
	if all == nil {
		all = []g{d.g}
	}
	for _, x := range all {
		names = append(names, x.Group)
		b64 = append(b64, x.GroupBase64)
	}
	return names, b64
}

// TestGroupBase64: every document that carries a group name carries the
// exact bytes of an id that is not valid UTF-8 as groupBase64, and has no
// such field for any other id.
func TestGroupBase64(t *testing.T) {
	want := base64.StdEncoding.EncodeToString([]byte(badName))
	if want != "YmFk//5uYW1l" {
		t.Fatalf("base64 = %s", want)
	}
	docs := map[string]func(w *bytes.Buffer, name string) error{
		"describe": func(w *bytes.Buffer, name string) error {
			g := idleGroup()
			g.Name = name
			return render.JSON(w, []*kafka.Group{g, ordersGroup()})
		},
		"health": func(w *bytes.Buffer, name string) error {
			return render.HealthJSON(w, []lag.Verdict{{GroupHealth: lag.GroupHealth{Group: name}}})
		},
		"reset plan": func(w *bytes.Buffer, name string) error {
			return render.PlanJSON(w, &reset.Plan{Group: name}, true, nil, nil)
		},
		"reset result": func(w *bytes.Buffer, name string) error {
			return render.PlanJSON(w, &reset.Plan{Group: name}, false, nil, &reset.Result{Group: name})
		},
		"simulate": func(w *bytes.Buffer, name string) error {
			g := ordersGroup()
			g.Name = name
			return render.SimulationJSON(w, g, &rebalance.Simulation{Group: name})
		},
		"simulate targets": func(w *bytes.Buffer, name string) error {
			g := newGroup()
			g.Name = name
			return render.TargetsJSON(w, g, "join 1", nil, nil)
		},
	}
	for what, write := range docs {
		var b bytes.Buffer
		if err := write(&b, badName); err != nil {
			t.Fatal(err)
		}
		names, b64 := groupFields(t, b.Bytes())
		if names[0] != "bad\ufffd\ufffdname" || b64[0] == nil || *b64[0] != want {
			t.Errorf("%s: group %q, groupBase64 %v:\n%s", what, names[0], b64[0], b.String())
		}
		if dec, _ := base64.StdEncoding.DecodeString(*b64[0]); string(dec) != badName {
			t.Errorf("%s: groupBase64 decodes to %q", what, dec)
		}
		for i := 1; i < len(b64); i++ {
			if b64[i] != nil {
				t.Errorf("%s: groupBase64 on valid %q", what, names[i])
			}
		}
		b.Reset()
		if err := write(&b, "消费者组\x1b"); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "groupBase64") {
			t.Errorf("%s: groupBase64 for a valid UTF-8 id:\n%s", what, b.String())
		}
	}
}
