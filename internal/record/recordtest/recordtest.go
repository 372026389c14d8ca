// Package recordtest measures what a game's recorder keeps: the heap it
// retains and whether any value of a decoded record's type is reachable
// from it. The recorders of every rule set share these checks.
package recordtest

import (
	"reflect"
	"runtime"
	"testing"
)

// Retained builds n values with build, keeps them all, and returns the
// heap they retain, in bytes per value: the heap in use after two
// collections with them alive, less the heap in use before. Whatever
// build drops is garbage and does not count.
func Retained(n int, build func() any) float64 {
	keep := make([]any, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keep {
		keep[i] = build()
	}
	runtime.GC()
	runtime.GC() // and what sync.Pools kept over the first
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	return (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(n)
}

// Reaches reports whether a value of type want is reachable from v through
// pointers, slices, arrays, maps, interfaces and struct fields (exported or
// not). An empty slice of want's type does not count: only a value does.
func Reaches(v any, want reflect.Type) bool {
	seen := map[uintptr]bool{}
	var walk func(x reflect.Value) bool
	walk = func(x reflect.Value) bool {
		if !x.IsValid() {
			return false
		}
		if x.Type() == want {
			return true
		}
		switch x.Kind() {
		case reflect.Pointer:
			if x.IsNil() || seen[x.Pointer()] {
				return false
			}
			seen[x.Pointer()] = true
			return walk(x.Elem())
		case reflect.Interface:
			return walk(x.Elem())
		case reflect.Slice, reflect.Array:
			if e := x.Type().Elem(); e.Kind() <= reflect.Complex128 || e.Kind() == reflect.String {
				return false // scalars: no value of want's type inside
			}
			for i := range x.Len() {
				if walk(x.Index(i)) {
					return true
				}
			}
		case reflect.Map:
			it := x.MapRange()
			for it.Next() {
				if walk(it.Key()) || walk(it.Value()) {
					return true
				}
			}
		case reflect.Struct:
			for i := range x.NumField() {
				if walk(x.Field(i)) {
					return true
				}
			}
		}
		return false
	}
	return walk(reflect.ValueOf(v))
}

// BetweenRounds checks a recorder between rounds: rec reaches no value of
// the decoded types (its finished rounds are kept encoded), and two calls
// of record, which reads rec's record, return equal records and leave rec
// as it was.
func BetweenRounds[R any](t testing.TB, rec *R, record func() any, decoded ...reflect.Type) {
	t.Helper()
	for _, typ := range decoded {
		if Reaches(rec, typ) {
			t.Fatalf("between rounds the recorder holds a %v", typ)
		}
	}
	before := *rec
	if g1, g2 := record(), record(); !reflect.DeepEqual(g1, g2) {
		t.Fatal("two records of one recorder differ")
	}
	if !reflect.DeepEqual(*rec, before) {
		t.Fatal("reading the record changed the recorder")
	}
	for _, typ := range decoded {
		if Reaches(rec, typ) {
			t.Fatalf("after its record was read the recorder holds a %v", typ)
		}
	}
}

// Restores checks that each of snapshots (by name) restores with restore
// to a recorder that keeps its rounds encoded (BetweenRounds) and whose
// record, which record reads with the recorder's error, is want.
func Restores[R any](t testing.TB, snapshots map[string][]byte, restore func([]byte) (*R, error), record func(*R) (any, error), want any, decoded ...reflect.Type) {
	t.Helper()
	for name, b := range snapshots {
		rec, err := restore(b)
		if err != nil {
			t.Fatalf("%s: restore = %v", name, err)
		}
		BetweenRounds(t, rec, func() any { g, _ := record(rec); return g }, decoded...)
		if got, err := record(rec); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: restored, the record differs (%v)", name, err)
		}
	}
}
