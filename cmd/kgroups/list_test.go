package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// listNames decodes `list -o json` and returns the group names and total
// lags in order.
func listNames(t *testing.T, stdout string) []string {
	t.Helper()
	var doc jsonDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("list -o json is not JSON: %v\n%s", err, stdout)
	}
	var out []string
	for _, g := range doc.Groups {
		out = append(out, g.Group+"="+strconv.FormatInt(g.TotalLag, 10))
	}
	return out
}

func TestList(t *testing.T) {
	c := startReadCluster(t)
	id := func(group string) string { return strconv.Itoa(int(c.CoordinatorFor(group))) }

	t.Run("table", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "list")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, lines(
			"GROUP    TYPE      STATE   ASSIGNOR            MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR",
			"g-848    consumer  Stable  range                     2       2           7   33            "+id(group848),
			"g-coop   classic   Stable  cooperative-sticky        2       2           7   33            "+id(groupCoop),
			"g-idle   classic   Empty   -                         0       2           2    8            "+id(groupIdle),
			"g-range  classic   Stable  range                     2       2           7   33            "+id(groupRange),
			"g-rr     classic   Stable  roundrobin                3       2           7   33            "+id(groupRR),
		))
	})

	t.Run("state filter", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "list", "--state", "EMPTY")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "stdout", stdout, lines(
			"GROUP   TYPE     STATE  ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR",
			"g-idle  classic  Empty  -               0       2           2    8            "+id(groupIdle),
		))

		code, stdout, stderr = c.kg(t, "list", "--state", "Reconciling,assigning")
		expectRun(t, code, stderr, 0, "")
		expectText(t, "no match", stdout, "GROUP  TYPE  STATE  ASSIGNOR  MEMBERS  TOPICS  PARTITIONS  LAG  COORDINATOR\n")
	})

	t.Run("type and state filters with json", func(t *testing.T) {
		code, stdout, stderr := c.kg(t, "list", "--type", "consumer", "-o", "json")
		expectRun(t, code, stderr, 0, "")
		if got, want := listNames(t, stdout), []string{"g-848=33"}; !slices.Equal(got, want) {
			t.Errorf("--type consumer: %q, want %q", got, want)
		}

		code, stdout, stderr = c.kg(t, "list", "--state", "stable", "--state", "Empty", "--type", "CLASSIC", "-o", "JSON")
		expectRun(t, code, stderr, 0, "")
		if got, want := listNames(t, stdout), []string{"g-coop=33", "g-idle=8", "g-range=33", "g-rr=33"}; !slices.Equal(got, want) {
			t.Errorf("--state stable,Empty --type classic: %q, want %q", got, want)
		}

		code, stdout, stderr = c.kg(t, "list", "--type", "classic", "--state", "empty")
		expectRun(t, code, stderr, 0, "")
		if n := strings.Count(stdout, "\n"); n != 2 || !strings.HasPrefix(strings.Split(stdout, "\n")[1], "g-idle ") {
			t.Errorf("--type classic --state empty:\n%s", stdout)
		}
	})
}

func TestListUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const help = "Run 'kgroups list --help' for usage.\n"
	const states = "Stable, Empty, PreparingRebalance, CompletingRebalance, Assigning, Reconciling, NotReady, Dead, Unknown"
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"list", "--state", "Stable,Rebalancing"}, "kgroups: invalid --state \"Rebalancing\": accepted values are " + states + " (any case)\n"},
		{[]string{"list", "--state", ""}, "kgroups: --state is empty: accepted values are " + states + " (any case)\n"},
		{[]string{"list", "--type", "share,bogus"}, "kgroups: invalid --type \"bogus\": accepted values are classic, consumer, share, streams (any case)\n"},
		{[]string{"list", "--type", ""}, "kgroups: --type is empty: accepted values are classic, consumer, share, streams (any case)\n"},
		{[]string{"list", "-o", "yaml"}, "kgroups: invalid --output \"yaml\": accepted values are table, json\n"},
		{[]string{"list", "extra"}, "kgroups: unknown command \"extra\" for \"kgroups list\"\n"},
	} {
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, tc.args...)...)
		if code != 2 || stdout != "" || stderr != tc.stderr+help {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr+help)
		}
	}
}

// failListGroups makes every broker answer ListGroups with
// UNKNOWN_SERVER_ERROR, while metadata and everything else work.
func failListGroups(c *kafkatest.Cluster) {
	c.ControlKey(int16(kmsg.ListGroups), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		resp := req.ResponseKind().(*kmsg.ListGroupsResponse)
		resp.ErrorCode = kerr.UnknownServerError.Code
		return resp, nil, true
	})
}

// TestListGroupsFails: when ListGroups fails after metadata succeeded, the
// error says so once, with the brokers' answer, not that metadata could not
// be read.
func TestListGroupsFails(t *testing.T) {
	isolateConfig(t)
	c := kafkatest.NewCluster(t)
	failListGroups(c)
	const want = "kgroups: list groups: request ListGroups has 3 separate shard errors, first: UNKNOWN_SERVER_ERROR: The server experienced an unexpected error when processing the request.\n"

	code, stdout, stderr := kg(t, "-b", strings.Join(c.Addrs, ","), "list")
	expectRun(t, code, stderr, 1, want)
	expectText(t, "stdout", stdout, "")

	// The same through runList, without cobra.
	var out, errOut bytes.Buffer
	a := newApp(strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	if err := a.globals.Flags().Parse([]string{"-b", strings.Join(c.Addrs, ",")}); err != nil {
		t.Fatal(err)
	}
	err := runList(context.Background(), a, listOptions{format: formatTable})
	if got := exitCode(&errOut, err); got != exitError || errOut.String() != want || out.String() != "" {
		t.Errorf("runList: exit %d, stdout %q, stderr %q; want 1 and %q", got, out.String(), errOut.String(), want)
	}
}
