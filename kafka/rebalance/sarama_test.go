package rebalance

import "testing"

// TestSaramaFixtures replays the recorded sarama groups (testdata/sarama)
// through the sarama models.
func TestSaramaFixtures(t *testing.T) {
	fixtures := replayClientFixtures(t, ImplSarama, "sarama",
		fixtureNames([]string{"range", "roundrobin", "sticky"}, []string{"billing", "default", "static"}))
	for name, f := range fixtures {
		if f.Library != "sarama" || f.Versions["sarama"] != "v1.61.1" {
			t.Errorf("%s: recorded with %s %v", name, f.Library, f.Versions)
		}
	}
}
