package reset

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTopicScope(t *testing.T) {
	tests := []struct {
		in   string
		want TopicScope
	}{
		{"orders", TopicScope{Topic: "orders"}},
		{"orders:0", TopicScope{Topic: "orders", Partitions: []int32{0}}},
		{"orders:2,0", TopicScope{Topic: "orders", Partitions: []int32{0, 2}}},
		{"orders:0,0,1", TopicScope{Topic: "orders", Partitions: []int32{0, 1}}},
		{"orders:0-3,5", TopicScope{Topic: "orders", Partitions: []int32{0, 1, 2, 3, 5}}},
		{"orders:3-3", TopicScope{Topic: "orders", Partitions: []int32{3}}},
		{"orders: 1 , 2", TopicScope{Topic: "orders", Partitions: []int32{1, 2}}},
		{"my.topic_v2-x:7", TopicScope{Topic: "my.topic_v2-x", Partitions: []int32{7}}},
		{"t:2147483647", TopicScope{Topic: "t", Partitions: []int32{2147483647}}},
	}
	for _, tt := range tests {
		got, err := ParseTopicScope(tt.in)
		if err != nil {
			t.Errorf("ParseTopicScope(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseTopicScope(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseTopicScopeErrors(t *testing.T) {
	tests := []struct{ in, why string }{
		{"", "the topic name is empty"},
		{":0", "the topic name is empty"},
		{"orders:", "no partitions after ':'"},
		{"orders:a", `partition "a" is not a non-negative whole number`},
		{"orders:1,,2", "an empty partition in the list"},
		{"orders:-1", `partition "-1" is negative`},
		{"orders:3-1", "range 3-1 runs backwards"},
		{"orders:1-", "a partition number is missing"},
		{"orders:0-200000", "longer than 100000 partitions"},
		{"orders:2147483648", `partition "2147483648" is too large`},
		{"ord ers", `contains ' '`},
		{"orders:1:2", `partition "1:2" is not a non-negative whole number`},
		{"..", `".." is not a legal topic name`},
		{strings.Repeat("a", 250), "250 characters long"},
	}
	for _, tt := range tests {
		_, err := ParseTopicScope(tt.in)
		if err == nil {
			t.Errorf("ParseTopicScope(%q) accepted it", tt.in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.why) || !strings.Contains(msg, TopicScopeFormat) {
			t.Errorf("ParseTopicScope(%q) = %q, want it to say %q and the accepted forms", tt.in, msg, tt.why)
		}
	}
}

func TestMergeTopicScopes(t *testing.T) {
	got := MergeTopicScopes([]TopicScope{
		{Topic: "b", Partitions: []int32{2}},
		{Topic: "a", Partitions: []int32{1}},
		{Topic: "b", Partitions: []int32{0, 2}},
		{Topic: "a"},
		{Topic: "a", Partitions: []int32{5}},
		{Topic: "c"},
	})
	want := []TopicScope{
		{Topic: "b", Partitions: []int32{0, 2}},
		{Topic: "a"},
		{Topic: "c"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("MergeTopicScopes = %+v, want %+v", got, want)
	}
}

func TestParseScope(t *testing.T) {
	if _, err := ParseScope(true, []string{"a"}); err == nil || !strings.Contains(err.Error(), "either --all-topics or --topic") {
		t.Errorf("both scopes: %v", err)
	}
	s, err := ParseScope(true, nil)
	if err != nil || !s.AllTopics || s.String() != "--all-topics" {
		t.Errorf("--all-topics: %+v %v", s, err)
	}
	s, err = ParseScope(false, []string{"a:1", "b", "a:0"})
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != "--topic a:0,1 --topic b" {
		t.Errorf("String = %q", s.String())
	}
	for _, c := range []struct {
		tp   TP
		want bool
	}{{TP{"a", 0}, true}, {TP{"a", 1}, true}, {TP{"a", 2}, false}, {TP{"b", 9}, true}, {TP{"c", 0}, false}} {
		if got := s.contains(c.tp); got != c.want {
			t.Errorf("contains(%s) = %v", c.tp, got)
		}
	}
	for in, want := range map[string]string{"a:0,1": "a:0,1", "a:0-2": "a:0-2", "a:5,0-3,7,8,9,11": "a:0-3,5,7-9,11", "a": "a"} {
		ts, err := ParseTopicScope(in)
		if err != nil || ts.String() != want {
			t.Errorf("ParseTopicScope(%q).String() = %q, %v; want %q", in, ts.String(), err, want)
		}
	}
	if _, err := ParseScope(false, []string{"a:x"}); err == nil {
		t.Error("bad --topic accepted")
	}
	if s, _ := ParseScope(false, nil); !s.IsZero() {
		t.Error("no flags should be the zero scope")
	}
}
