package rebalance

import "testing"

// TestKafkaPythonFixtures replays the recorded kafka-python groups
// (testdata/kafka-python) through the kafka-python models.
func TestKafkaPythonFixtures(t *testing.T) {
	fixtures := replayClientFixtures(t, ImplKafkaPython, "kafka-python",
		fixtureNames([]string{"range", "roundrobin"}, []string{"billing", "default"}))
	for name, f := range fixtures {
		if f.Library != "kafka-python" || f.Versions["kafka-python"] != "2.0.2" {
			t.Errorf("%s: recorded with %s %v", name, f.Library, f.Versions)
		}
	}
}

// TestConfluentKafkaPythonFixtures replays the recorded
// confluent-kafka-python groups (testdata/confluent-kafka-python) through
// the librdkafka models: confluent-kafka-python's assignors are
// librdkafka's.
func TestConfluentKafkaPythonFixtures(t *testing.T) {
	fixtures := replayClientFixtures(t, ImplLibrdkafka, "confluent-kafka-python",
		fixtureNames([]string{"cooperative-sticky", "range", "roundrobin"}, []string{"billing", "default", "static"}))
	for name, f := range fixtures {
		if f.Library != "confluent-kafka-python" || f.Versions["confluent-kafka"] != "1.7.0" || f.Versions["librdkafka"] != "2.0.2" {
			t.Errorf("%s: recorded with %s %v", name, f.Library, f.Versions)
		}
	}
}

// TestMixedFixtures replays the mixed group (one kafka-python member,
// which leads, and two confluent-kafka-python members, all with range)
// through the kafka-python model, and requires the capture to show the
// kafka-python member led: it recorded the leader's input.
func TestMixedFixtures(t *testing.T) {
	fixtures := replayClientFixtures(t, ImplKafkaPython, "mixed",
		[]string{"range-kafka-python-leader-join.json", "range-kafka-python-leader-leave.json"})
	for name, f := range fixtures {
		if f.Leader == nil {
			t.Errorf("%s: the kafka-python member recorded no leader input: it did not lead", name)
		}
		libs := map[Impl]int{}
		for _, m := range f.After {
			for _, ev := range ClientEvidence {
				if ev.DefaultClientID(m.ClientID) {
					libs[ev.Impl]++
				}
			}
		}
		if libs[ImplKafkaPython] != 1 || libs[ImplLibrdkafka] != len(f.After)-1 {
			t.Errorf("%s: members by default client id %v", name, libs)
		}
	}
}
