package rebalance

// Impl names the client implementation whose assignors a group's leader
// runs: the same protocol name ("cooperative-sticky", "roundrobin") means
// different tie-breaking in different clients.
type Impl string

// The implementations kgroups tells apart.
const (
	// ImplJava is the Java client and franz-go, whose assignors franz-go's
	// balancers reproduce exactly.
	ImplJava Impl = "java"
	// ImplLibrdkafka is librdkafka and the clients built on it (kcat,
	// confluent-kafka-go, -python, -dotnet).
	ImplLibrdkafka Impl = "librdkafka"
	// ImplKafkaJS is kafkajs.
	ImplKafkaJS Impl = "kafkajs"
	// ImplSarama is IBM/sarama (formerly Shopify/sarama), Go.
	ImplSarama Impl = "sarama"
	// ImplKafkaGo is segmentio/kafka-go, Go.
	ImplKafkaGo Impl = "kafka-go"
	// ImplKafkaPython is kafka-python (dpkp/kafka-python), pure Python.
	// confluent-kafka-python is librdkafka (ImplLibrdkafka).
	ImplKafkaPython Impl = "kafka-python"
	// ImplUnknown is a leader kgroups cannot identify.
	ImplUnknown Impl = "unknown"
)

// model is one implementation's assignor for one protocol name: plan makes
// one join round's assignment for members (in the order the group reports
// them; the model sorts them as its implementation does), each owning
// owned[member id] (topic to partitions), over counts (partitions per
// topic). A cooperative model is run round after round until nothing is
// revoked, as Simulate runs franz-go's cooperative balancer.
type model struct {
	impl        Impl
	protocol    string
	cooperative bool
	// inexact is why the model cannot be exact for any input (an input
	// kgroups cannot see decides the library's result); empty when it is
	// exact for the inputs it is given.
	inexact string
	// idOnly is a model that orders members by member id alone, ignoring
	// instance ids: joiners, static or not, are placed among member ids.
	idOnly bool
	plan   func(members []simMember, owned map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error)
}

// models are the modelled implementations' assignors, registered by the
// file that writes each (register, from an init function).
var models []model

func register(m model) { models = append(models, m) }

// lookupModel returns impl's assignor for protocol.
func lookupModel(impl Impl, protocol string) (model, bool) {
	for _, m := range models {
		if m.impl == impl && m.protocol == protocol {
			return m, true
		}
	}
	return model{}, false
}
