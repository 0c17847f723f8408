package main

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestStaticMembersBeforeKafka24: Kafka 2.3 brought static membership
// (JoinGroup v5) but only 2.4 tells a describer a member's
// group.instance.id (DescribeGroups v4) or removes it (LeaveGroup v3).
// On 2.3, as the support table says, GROUP-INSTANCE-ID reads - and
// removing the member by instance id is refused with nothing sent; on
// 2.4 the id is shown.
func TestStaticMembersBeforeKafka24(t *testing.T) {
	for _, tc := range []struct {
		name     string
		v        *kversion.Versions
		instance string
	}{
		{"2.3", kversion.V2_3_0(), "-       "},
		{"2.4", kversion.V2_4_0(), "static-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			c := kafkatest.NewCluster(t, kfake.MaxVersions(tc.v))
			c.CreateTopic(t, "orders", 1)
			m := c.Join(t, "g-static", []string{"orders"}, kgo.ClientID("static"), kgo.InstanceID("static-1"))
			c.WaitStable(t, "g-static", 1, 1)
			vc := &versionCluster{Cluster: c, name: tc.name, v: tc.v, brokers: strings.Join(c.Addrs, ","), state: t.TempDir()}
			if got, want := vc.lacks(t, kafka.FeatureStaticMembers), tc.name == "2.3"; got != want {
				t.Fatalf("lacks static members: %v, want %v", got, want)
			}
			code, stdout, stderr := vc.kg(t, "describe", "g-static", "--members")
			expectRun(t, code, stderr, 0, "")
			id := placeholder("MEMBER", m.MemberID())
			expectText(t, "stdout", stdout, lines(
				"GROUP     CONSUMER-ID"+strings.Repeat(" ", len(id)-len("CONSUMER-ID"))+"  GROUP-INSTANCE-ID  HOST             CLIENT-ID  #PARTITIONS",
				"g-static  "+id+"  "+tc.instance+"           "+hostPH+"  static               1",
			))
			if tc.name != "2.3" {
				return
			}
			code, _, stderr = vc.kg(t, "rebalance", "g-static", "--all", "--execute")
			expectRun(t, code, stderr, 1, "kgroups: members not removed: the brokers are older than Kafka 2.4 (LeaveGroup v3): nothing was sent and no receipt was written\n")
			if rs := vc.receipts(t); len(rs) != 0 {
				t.Errorf("receipts %q, want none", rs)
			}
		})
	}
}
