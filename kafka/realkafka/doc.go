// Package realkafka runs real Apache Kafka for kgroups' real-Kafka test
// tier: clusters started by .ci/kafka from Maven Central's jars, Kafka's
// own Java clients (consumers, share consumers, Kafka Streams apps) in one
// JVM, and Kafka's tools (kafka-consumer-groups.sh's ConsumerGroupCommand
// and the rest), whose tables the tests parse and hold kgroups' output
// against.
//
// Everything but this comment is built only with the realkafka build tag
// (go test -tags realkafka), so the README's test command never needs a
// JVM; `make test-kafka` runs the tier. docs/development.md says how.
package realkafka
