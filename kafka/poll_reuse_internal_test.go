package kafka

import (
	"errors"
	"reflect"
	"testing"
)

// TestSameRowComparesEveryField changes each field of a row in turn: a
// row that differs in any field, or carries an error, is never taken for
// the row of the poll before (a field added to PartitionOffsets and not
// to sameRow fails here).
func TestSameRowComparesEveryField(t *testing.T) {
	a := PartitionOffsets{Topic: "t", Partition: 1, LeaderEpoch: 2, Committed: 3, Metadata: "m", LogStart: 4, LogEnd: 5,
		Lag: 6, LastStable: 7, MemberID: "id", ClientID: "c", Host: "h", Owners: []string{"id"}, brokerLag: 8}
	if b := a; !sameRow(&a, &b) {
		t.Fatal("a row is not the same as its copy")
	}
	typ := reflect.TypeFor[PartitionOffsets]()
	for i := range typ.NumField() {
		b := a
		f := reflect.ValueOf(&b).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			setField(f, reflect.ValueOf("other"))
		case reflect.Int32, reflect.Int64:
			setField(f, reflect.ValueOf(int64(99)).Convert(f.Type()))
		case reflect.Bool:
			setField(f, reflect.ValueOf(true))
		case reflect.Slice:
			setField(f, reflect.ValueOf([]string{"other"}))
		case reflect.Interface:
			setField(f, reflect.ValueOf(errors.New("failed")))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", typ.Field(i).Name, f.Kind())
		}
		if sameRow(&a, &b) || sameRow(&b, &a) {
			t.Errorf("rows that differ in %s are taken for the same", typ.Field(i).Name)
		}
	}
}

// setField sets f, exported or not (the test's own copy of a row).
func setField(f, v reflect.Value) {
	reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem().Set(v)
}
