package reset

import (
	"fmt"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// checkGroupType refuses a reset of a group whose type kgroups cannot
// change, and limits a streams group's reset to its input topics.
//
// A streams group commits offsets with OffsetCommit like a consumer group,
// so its resets go through the same plan, receipt and verify; but only the
// topology's input (source) topics may be named. Its repartition and
// changelog topics are Kafka Streams' own: moving a repartition topic's
// offset skips or repeats records between subtopologies, and a changelog has
// no group offset at all. --all-topics means all input topics.
func checkGroupType(in *Inputs, req Request) error {
	if !in.Exists {
		return nil
	}
	switch in.Type {
	case kafka.TypeClassic, kafka.TypeConsumer, kafka.TypeShare:
		// A share group's scenarios and scope are checked by its own
		// rules (checkSharePlan, checkShareScope).
		return nil
	case kafka.TypeStreams:
	default:
		return fmt.Errorf("cannot change the offsets of group %q: it is a %s group, and kgroups changes the offsets of classic, consumer, share and streams groups only. Nothing was changed", in.Group, in.Type)
	}
	inputs := in.Streams.InputTopics()
	isInput := make(map[string]bool, len(inputs))
	for _, t := range inputs {
		isInput[t] = true
	}
	check := func(topic string) error {
		if isInput[topic] {
			return nil
		}
		what := "is not an input topic of its topology"
		if in.Streams.IsInternalTopic(topic) {
			what = "is an internal topic of the application (repartition or changelog), which Kafka Streams manages"
		}
		accepted := "none: the group has no topology yet"
		if len(inputs) > 0 {
			accepted = strings.Join(inputs, ", ")
		}
		return fmt.Errorf("cannot change the offsets of topic %q for streams group %q: it %s. Nothing was changed. Input topics: %s", topic, in.Group, what, accepted)
	}
	switch {
	case req.Scenario.Kind == FromFile || req.Scenario.Kind == Undo:
		for _, r := range req.Scenario.Rows {
			if err := check(r.Topic); err != nil {
				return err
			}
		}
	case req.Scope.AllTopics:
		for tp := range in.Committed {
			if !isInput[tp.Topic] {
				delete(in.Committed, tp)
			}
		}
	default:
		for _, ts := range req.Scope.Topics {
			if err := check(ts.Topic); err != nil {
				return err
			}
		}
	}
	return nil
}
