package kafka

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// This file is the one place that says which features old brokers lack
// and why a read or a write could not be made: the API each feature
// needs, the first Kafka release that answers it, and the classification
// of a failed request as unsupported (the brokers are too old) or denied
// (the principal's ACLs). The CLI's notes, the JSON documents and the UI
// all word what is missing from a Missing.

// Feature is something kgroups does that needs a request some brokers do
// not answer.
type Feature struct {
	// Name is the feature in the support table.
	Name string
	// ID names the feature in JSON ("transactions").
	ID string
	// What is the feature in a user's words, the subject of a note:
	// "open transactions not named".
	What string
	// Key and Version are the request and its lowest version the
	// feature needs.
	Key     kmsg.Key
	Version int16
	// Below says what kgroups does on brokers that lack it, for the
	// support table.
	Below string
}

// The features old brokers may lack, in the order of the support table.
var (
	FeatureStaticMembers = Feature{Name: "static members' group.instance.id", ID: "static-members", What: "group.instance.id of static members not shown",
		Key: kmsg.DescribeGroups, Version: 4,
		Below: "GROUP-INSTANCE-ID reads -"}
	FeatureRemoveMembers = Feature{Name: "member removal (rebalance)", ID: "remove-members", What: "members not removed",
		Key: kmsg.LeaveGroup, Version: 3,
		Below: "rebalance --execute and the UI's removal refuse before sending anything; no receipt is written"}
	FeatureOffsetDelete = Feature{Name: "offset deletion (delete-offsets)", ID: "delete-offsets", What: "offsets not deleted",
		Key: kmsg.OffsetDelete, Version: 0,
		Below: "delete-offsets --execute refuses before sending anything; no receipt is written (delete the whole Empty group instead)"}
	FeatureListStates = Feature{Name: "listing groups by state", ID: "list-states", What: "group states not filtered by the brokers",
		Key: kmsg.ListGroups, Version: 4,
		Below: "none: kgroups lists every group and filters states itself on every release"}
	FeatureProducers = Feature{Name: "the producer behind an open transaction", ID: "producers", What: "producers behind a trailing stable offset not named",
		Key: kmsg.DescribeProducers, Version: 0,
		Below: "diagnose still reports stuck-behind-open-transaction from the stable offsets, without the producer"}
	FeatureTopicIDs = Feature{Name: "topic ids", ID: "topic-ids", What: "topic ids not read",
		Key: kmsg.Metadata, Version: 10,
		Below: "a recreated topic is recognised by its partitions' offsets alone"}
	FeatureTransactions = Feature{Name: "the open transaction's transactional id and state", ID: "transactions", What: "transactions not checked",
		Key: kmsg.ListTransactions, Version: 0,
		Below: "diagnose names the producer id but not the transactional id, state or age"}
	FeatureTransactionDetails = Feature{Name: "the open transaction's timeout and age", ID: "transaction-details", What: "transactions not described",
		Key: kmsg.DescribeTransactions, Version: 0,
		Below: "diagnose names the transactional id but not its timeout or age"}
	FeatureOffsetFetchBatch = Feature{Name: "committed offsets of many groups in one request", ID: "offset-fetch-batch", What: "offsets not fetched in batches",
		Key: kmsg.OffsetFetch, Version: 8,
		Below: "one OffsetFetch per group instead of one per coordinator: same numbers, more requests"}
	FeatureConsumerGroups = Feature{Name: "KIP-848 consumer groups", ID: "consumer-groups", What: "consumer-protocol (KIP-848) groups not described",
		Key: kmsg.ConsumerGroupDescribe, Version: 0,
		Below: "no such groups exist on these brokers (KIP-848 is early access before Kafka 4.0); classic groups are unaffected"}
	FeatureRetention = Feature{Name: "topics' retention.ms (consumer-behind-retention)", ID: "retention", What: "retention not checked",
		Key: kmsg.DescribeConfigs, Version: 0,
		Below: "always answered; when ACLs deny it, consumer-behind-retention is not judged and a note says so"}
)

// Features is the support table: every feature old brokers may lack.
func Features() []Feature {
	return []Feature{
		FeatureStaticMembers, FeatureRemoveMembers, FeatureOffsetDelete, FeatureListStates,
		FeatureProducers, FeatureTopicIDs, FeatureTransactions, FeatureTransactionDetails,
		FeatureOffsetFetchBatch, FeatureConsumerGroups, FeatureRetention,
	}
}

// API is the name of the request the feature needs ("ListTransactions").
func (f Feature) API() string { return kmsg.NameForKey(int16(f.Key)) }

// Request is the request and version, "ListGroups v4" (or the name alone
// for v0).
func (f Feature) Request() string {
	if f.Version == 0 {
		return f.API()
	}
	return fmt.Sprintf("%s v%d", f.API(), f.Version)
}

// releases are the Kafka releases whose API versions kversion knows, oldest
// first.
var releases = []struct {
	name string
	v    func() *kversion.Versions
}{
	{"0.8.0", kversion.V0_8_0}, {"0.8.1", kversion.V0_8_1}, {"0.8.2", kversion.V0_8_2},
	{"0.9", kversion.V0_9_0}, {"0.10.0", kversion.V0_10_0}, {"0.10.1", kversion.V0_10_1},
	{"0.10.2", kversion.V0_10_2}, {"0.11", kversion.V0_11_0}, {"1.0", kversion.V1_0_0},
	{"1.1", kversion.V1_1_0}, {"2.0", kversion.V2_0_0}, {"2.1", kversion.V2_1_0},
	{"2.2", kversion.V2_2_0}, {"2.3", kversion.V2_3_0}, {"2.4", kversion.V2_4_0},
	{"2.5", kversion.V2_5_0}, {"2.6", kversion.V2_6_0}, {"2.7", kversion.V2_7_0},
	{"2.8", kversion.V2_8_0}, {"3.0", kversion.V3_0_0}, {"3.1", kversion.V3_1_0},
	{"3.2", kversion.V3_2_0}, {"3.3", kversion.V3_3_0}, {"3.4", kversion.V3_4_0},
	{"3.5", kversion.V3_5_0}, {"3.6", kversion.V3_6_0}, {"3.7", kversion.V3_7_0},
	{"3.8", kversion.V3_8_0}, {"3.9", kversion.V3_9_0}, {"4.0", kversion.V4_0_0},
	{"4.1", kversion.V4_1_0}, {"4.2", kversion.V4_2_0}, {"4.3", kversion.V4_3_0},
	{"4.4", kversion.V4_4_0},
}

// Kafka is the first Kafka release whose brokers answer the feature's
// request at its version ("2.8"), as franz-go's kversion records the
// releases; "" when no release kversion knows does.
func (f Feature) Kafka() string {
	for _, r := range releases {
		if v, ok := r.v().LookupMaxKeyVersion(int16(f.Key)); ok && v >= f.Version {
			return r.name
		}
	}
	return ""
}

// SupportedBy reports whether brokers advertising vs answer the feature.
func (f Feature) SupportedBy(vs *kversion.Versions) bool {
	v, ok := vs.LookupMaxKeyVersion(int16(f.Key))
	return ok && v >= f.Version
}

// Reason is why a feature's read or write could not be made.
type Reason string

const (
	// Unsupported is a request the brokers do not answer at the version
	// the feature needs.
	Unsupported Reason = "unsupported"
	// Denied is a request the brokers' ACLs deny the principal.
	Denied Reason = "denied"
)

// Missing is a feature's read (or write) that could not be made, and why.
type Missing struct {
	Feature Feature
	Reason  Reason
	// Code is the Kafka error name of a denial
	// ("TOPIC_AUTHORIZATION_FAILED"); "" for Unsupported.
	Code string
}

// Text is the note a user reads, once: what is missing, why, and what to
// do about it. "transactions not checked: the brokers are older than
// Kafka 3.0 (ListTransactions)".
func (m Missing) Text() string {
	if m.Reason == Denied {
		return fmt.Sprintf("%s: the brokers' ACLs deny %s to this principal (%s); grant it to see this", m.Feature.What, m.Feature.API(), m.Code)
	}
	return fmt.Sprintf("%s: the brokers are older than Kafka %s (%s)", m.Feature.What, m.Feature.Kafka(), m.Feature.Request())
}

// MissingError is a write refused before it was sent because the
// brokers lack its feature (Require).
type MissingError struct{ Missing }

func (e MissingError) Error() string { return e.Text() }

// Classify says whether err, the failure of a request made for f, is one
// the brokers will give every time: the version is not supported or the
// ACLs deny it. Any other error (a timeout, a broker down) is not
// classified: ok is false.
func Classify(f Feature, err error) (Missing, bool) {
	if err == nil {
		return Missing{}, false
	}
	if tooOld(err) {
		return Missing{Feature: f, Reason: Unsupported}, true
	}
	for _, denied := range []*kerr.Error{
		kerr.TopicAuthorizationFailed, kerr.GroupAuthorizationFailed,
		kerr.ClusterAuthorizationFailed, kerr.TransactionalIDAuthorizationFailed,
	} {
		if errors.Is(err, denied) {
			return Missing{Feature: f, Reason: Denied, Code: denied.Message}, true
		}
	}
	return Missing{}, false
}

// AddMissing appends m to ms unless ms already says the same.
func AddMissing(ms []Missing, m Missing) []Missing {
	for _, o := range ms {
		if o.Feature.ID == m.Feature.ID && o.Reason == m.Reason {
			return ms
		}
	}
	return append(ms, m)
}

// BrokerVersions is the API versions every broker of the cluster answers:
// for each request, the lowest maximum version among the brokers that
// answered ApiVersions. It is read once per client and kept.
func (c *Client) BrokerVersions(ctx context.Context) (*kversion.Versions, error) {
	c.versionsMu.Lock()
	defer c.versionsMu.Unlock()
	if c.versions != nil {
		return c.versions, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	all, err := c.adm.ApiVersions(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the brokers' API versions: %w", err)
	}
	var vs *kversion.Versions
	n := 0
	var errs []string
	for _, b := range all.Sorted() {
		if b.Err != nil {
			errs = append(errs, fmt.Sprintf("broker %d: %v", b.NodeID, b.Err))
			continue
		}
		n++
		bv := kversion.FromApiVersionsResponse(b.Raw())
		if vs == nil {
			vs = bv
			continue
		}
		vs.EachMaxKeyVersion(func(k, v int16) {
			bmax, ok := bv.LookupMaxKeyVersion(k)
			switch {
			case !ok:
				vs.SetMaxKeyVersion(k, -1)
			case bmax < v:
				vs.SetMaxKeyVersion(k, bmax)
			}
		})
	}
	if n == 0 {
		return nil, fmt.Errorf("read the brokers' API versions: %s", strings.Join(errs, "; "))
	}
	c.versions = vs
	return vs, nil
}

// Require checks that every broker answers f before a write is sent. It
// returns a MissingError (Unsupported) when some broker does not, and an error
// when the versions could not be read; nil when the write may go ahead.
func (c *Client) Require(ctx context.Context, f Feature) error {
	vs, err := c.BrokerVersions(ctx)
	if err != nil {
		return err
	}
	if !f.SupportedBy(vs) {
		return MissingError{Missing{Feature: f, Reason: Unsupported}}
	}
	return nil
}
