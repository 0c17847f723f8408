package main

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestDeniedReads: a principal whose ACLs allow reading topics and groups
// but deny DescribeConfigs gets every read its ACLs allow. diagnose
// finds what the offsets show, says once that retention was not checked
// and why, and exits on its findings, not on the denied read.
func TestDeniedReads(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	const user, pass = "viewer", "v1ewer-pw"
	allow := func(r kmsg.ACLResourceType, name string, op kmsg.ACLOperation) kfake.ACL {
		return kfake.ACL{Resource: r, Name: name, Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: op, Allow: true}
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin"),
		kfake.User("PLAIN", user, pass,
			allow(kmsg.ACLResourceTypeTopic, "*", kmsg.ACLOperationRead),
			allow(kmsg.ACLResourceTypeTopic, "*", kmsg.ACLOperationDescribe),
			allow(kmsg.ACLResourceTypeGroup, "*", kmsg.ACLOperationDescribe),
			allow(kmsg.ACLResourceTypeGroup, "*", kmsg.ACLOperationRead),
			allow(kmsg.ACLResourceTypeCluster, "kafka-cluster", kmsg.ACLOperationDescribe),
		))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	admin, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.SASL(plain.Auth{User: "admin", Pass: "admin"}.AsMechanism()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	adm := kadm.NewClient(admin)
	if _, err := adm.CreateTopic(ctx, 1, -1, nil, "orders"); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := admin.ProduceSync(ctx, &kgo.Record{Topic: "orders", Value: []byte{byte('0' + i)}}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	offs := make(kadm.Offsets)
	offs.AddOffset("orders", 0, 4, -1)
	if resp, err := adm.CommitOffsets(ctx, "g-slow", offs); err != nil || resp.Error() != nil {
		t.Fatalf("commit: %v %v", err, resp.Error())
	}
	t.Setenv("KGROUPS_SASL_PASSWORD", pass)
	base := []string{"-b", strings.Join(c.ListenAddrs(), ","), "--sasl-mechanism", "PLAIN", "--sasl-username", user}

	code, stdout, stderr := runKgroups(t, append(base, "list")...)
	if code != 0 || !strings.Contains(stdout, "\ng-slow  classic  Empty  -               0       1           1    6") || stderr != "" {
		t.Errorf("list: exit %d\n%s\nstderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runKgroups(t, append(base, "diagnose", "g-slow", "--window", "300ms", "--interval", "100ms", "-o", "json")...)
	findings, notes := diagnoseSummary(t, stdout)
	note := "retention not checked: the brokers' ACLs deny DescribeConfigs to this principal (TOPIC_AUTHORIZATION_FAILED); grant it to see this"
	if code != 0 || stderr != "" {
		t.Errorf("diagnose -o json: exit %d, stderr %q", code, stderr)
	}
	expectText(t, "findings", findings, "")
	expectText(t, "notes", notes, "DescribeConfigs v0 (Kafka 0.11) denied: "+note+"\n")
	if !strings.Contains(stdout, `"code": "TOPIC_AUTHORIZATION_FAILED"`) {
		t.Errorf("the note lacks the denial's code:\n%s", stdout)
	}
	code, _, stderr = runKgroups(t, append(base, "diagnose", "g-slow", "--window", "300ms", "--interval", "100ms")...)
	expectRun(t, code, stderr, 0, "note: "+note+"\n")
}
