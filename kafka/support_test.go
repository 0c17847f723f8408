package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestFeatureReleases holds each feature's first Kafka release, derived
// from kversion, to the releases KAFKA_NOTES.md lists.
func TestFeatureReleases(t *testing.T) {
	want := map[string]string{
		"static-members": "2.4", "remove-members": "2.4", "delete-offsets": "2.4",
		"list-states": "2.6", "producers": "2.8", "topic-ids": "2.8",
		"transactions": "3.0", "transaction-details": "3.0", "offset-fetch-batch": "3.0",
		"consumer-groups": "3.8", "retention": "0.11",
	}
	fs := kafka.Features()
	if len(fs) != len(want) {
		t.Errorf("%d features, want %d", len(fs), len(want))
	}
	for _, f := range fs {
		if got := f.Kafka(); got != want[f.ID] {
			t.Errorf("%s (%s): first answered by Kafka %q, want %q", f.ID, f.Request(), got, want[f.ID])
		}
	}
}

func TestClassify(t *testing.T) {
	f := kafka.FeatureTransactions
	tooOld := fmt.Errorf("list transactions: request ListTransactions has 3 separate shard errors, first: %w",
		errors.New("broker is too old; the broker has already indicated it will not know how to handle the request"))
	for _, tc := range []struct {
		err  error
		ok   bool
		text string
	}{
		{tooOld, true, "transactions not checked: the brokers are older than Kafka 3.0 (ListTransactions)"},
		{kerr.UnsupportedVersion, true, "transactions not checked: the brokers are older than Kafka 3.0 (ListTransactions)"},
		{fmt.Errorf("x: %w", kerr.ClusterAuthorizationFailed), true, "transactions not checked: the brokers' ACLs deny ListTransactions to this principal (CLUSTER_AUTHORIZATION_FAILED); grant it to see this"},
		{kerr.RequestTimedOut, false, ""},
		{context.DeadlineExceeded, false, ""},
		{nil, false, ""},
	} {
		m, ok := kafka.Classify(f, tc.err)
		if ok != tc.ok || (ok && m.Text() != tc.text) {
			t.Errorf("Classify(%v) = %q, %v; want %q, %v", tc.err, m.Text(), ok, tc.text, tc.ok)
		}
	}
	ms := kafka.AddMissing(nil, kafka.Missing{Feature: f, Reason: kafka.Unsupported})
	ms = kafka.AddMissing(ms, kafka.Missing{Feature: f, Reason: kafka.Unsupported})
	if len(ms) != 1 {
		t.Errorf("the same note twice gave %d notes, want 1", len(ms))
	}
}

// TestBrokerVersions reads what kfake advertises for an old release, and
// Require refuses a feature it lacks without sending the feature's request.
func TestBrokerVersions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       *kversion.Versions
		missing []string
	}{
		{"2.1", kversion.V2_1_0(), []string{"static-members", "remove-members", "delete-offsets", "list-states", "producers", "topic-ids", "transactions", "transaction-details", "offset-fetch-batch", "consumer-groups"}},
		{"2.8", kversion.V2_8_0(), []string{"transactions", "transaction-details", "offset-fetch-batch", "consumer-groups"}},
		{"4.0", kversion.V4_0_0(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := kafkatest.NewCluster(t, kfake.MaxVersions(tc.v))
			cl := c.Client(t)
			var missing []string
			for _, f := range kafka.Features() {
				err := cl.Require(context.Background(), f)
				var m kafka.MissingError
				switch {
				case err == nil:
				case errors.As(err, &m) && m.Reason == kafka.Unsupported:
					missing = append(missing, f.ID)
				default:
					t.Fatalf("%s: %v", f.ID, err)
				}
			}
			if fmt.Sprint(missing) != fmt.Sprint(tc.missing) {
				t.Errorf("missing %q, want %q", missing, tc.missing)
			}
		})
	}
}

// TestKfakeOldVersionsTakeKIP848Joins pins a difference between kfake's
// emulation of Kafka 3.9 and a real 3.9.1 broker: both advertise
// ConsumerGroupHeartbeat v0, but the real broker refuses a KIP-848 member
// with UNSUPPORTED_VERSION unless the protocol was enabled
// (TestRealOldBrokers/3.9.1/versions), where kfake takes it. A kfake test
// on 3.9's versions can hold KIP-848 groups no default 3.9 cluster has.
func TestKfakeOldVersionsTakeKIP848Joins(t *testing.T) {
	c := kafkatest.NewCluster(t, kfake.MaxVersions(kversion.V3_9_0()), kfake.SeedTopics(1, "orders"))
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	hb := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	hb.Version = 0
	hb.Group, hb.MemberEpoch, hb.RebalanceTimeoutMillis = "k-probe", 0, 30000
	hb.SubscribedTopicNames = []string{"orders"}
	hb.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
	resp, err := hb.RequestWith(context.Background(), cl)
	if err != nil {
		t.Fatal(err)
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil || resp.MemberEpoch != 1 {
		t.Errorf("kfake on 3.9's versions answers a KIP-848 join with %v at epoch %d; want it taken at epoch 1", err, resp.MemberEpoch)
	}
}
