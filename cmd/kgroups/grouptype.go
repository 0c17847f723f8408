package main

import (
	"fmt"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// classicOrConsumerOnly refuses an action that only exists for classic and
// consumer-protocol groups (removing members, simulating an assignor) on a
// group of any other type, naming its type, before anything is sent.
func classicOrConsumerOnly(g *kafka.Group, action string) error {
	switch g.Type {
	case kafka.TypeClassic, kafka.TypeConsumer:
		return nil
	case kafka.TypeStreams:
		return fmt.Errorf("cannot %s group %q: it is a streams group, whose tasks Kafka Streams' own protocol assigns; %s works on classic and consumer groups only. Nothing was sent", action, format.Sanitize(g.Name), action)
	}
	return fmt.Errorf("cannot %s group %q: it is a %s group; %s works on classic and consumer groups only. Nothing was sent", action, format.Sanitize(g.Name), format.Sanitize(string(g.Type)), action)
}
