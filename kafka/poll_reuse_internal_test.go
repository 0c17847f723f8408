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
		Lag: 6, LastStable: 7}
	a.SetOwner("id", "c", "h", []string{"id"})
	a.SetBrokerLag(8)
	if b := a; !sameRow(&a, &b) {
		t.Fatal("a row is not the same as its copy")
	}
	typ := reflect.TypeFor[PartitionOffsets]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Type.Kind() == reflect.Pointer {
			// The owned part, shared by rows: each of its fields in turn,
			// in a copy of it.
			for j := range f.Type.Elem().NumField() {
				b := a
				o := *b.owned
				if !changeField(reflect.ValueOf(&o).Elem().Field(j)) {
					t.Fatalf("field %s.%s: kind not covered by this test", f.Name, f.Type.Elem().Field(j).Name)
				}
				b.owned = &o
				if sameRow(&a, &b) || sameRow(&b, &a) {
					t.Errorf("rows that differ in %s.%s are taken for the same", f.Name, f.Type.Elem().Field(j).Name)
				}
			}
			continue
		}
		b := a
		if !changeField(reflect.ValueOf(&b).Elem().Field(i)) {
			t.Fatalf("field %s: kind %s not covered by this test", typ.Field(i).Name, typ.Field(i).Type.Kind())
		}
		if sameRow(&a, &b) || sameRow(&b, &a) {
			t.Errorf("rows that differ in %s are taken for the same", typ.Field(i).Name)
		}
	}
	// A row with no owned part (BrokerLag 0) and one as a poll starts it
	// (BrokerLag NoOffset) differ too.
	if x, y := (PartitionOffsets{}), newRow("", 0); sameRow(&x, &y) {
		t.Error("rows with BrokerLag 0 and NoOffset are taken for the same")
	}
}

// changeField sets f to a value other than the test row's, reporting
// false for a kind it does not know.
func changeField(f reflect.Value) bool {
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
		return false
	}
	return true
}

// setField sets f, exported or not (the test's own copy of a row).
func setField(f, v reflect.Value) {
	reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem().Set(v)
}
