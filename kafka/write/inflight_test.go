package write

import "testing"

func TestInFlight(t *testing.T) {
	end1 := Begin("reset of group a", "/r/1.json")
	end2 := Begin("deletion of group b", "/r/2.json")
	if got := InFlight(); len(got) != 2 || got[0].Receipt != "/r/1.json" || got[1].What != "deletion of group b" {
		t.Fatalf("in flight: %+v", got)
	}
	end1()
	end1()
	if got := InFlight(); len(got) != 1 || got[0].Receipt != "/r/2.json" {
		t.Fatalf("after one ended: %+v", got)
	}
	end2()
	if got := InFlight(); len(got) != 0 {
		t.Fatalf("after both ended: %+v", got)
	}
}
