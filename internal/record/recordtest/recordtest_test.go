package recordtest

import (
	"reflect"
	"testing"
)

type leaf struct{ n int }

type node struct {
	name  string
	next  *node
	leafs []leaf
	any   any
	m     map[string]*leaf
	raw   []byte
}

func TestReaches(t *testing.T) {
	loop := &node{}
	loop.next = loop
	for _, tc := range []struct {
		name string
		v    any
		want bool
	}{
		{"nil", nil, false},
		{"an empty node", &node{}, false},
		{"an empty slice of leafs", &node{leafs: []leaf{}}, false},
		{"a leaf in a slice", &node{leafs: []leaf{{1}}}, true},
		{"a leaf behind two pointers", &node{next: &node{next: &node{leafs: []leaf{{}}}}}, true},
		{"a leaf in an interface", &node{any: leaf{}}, true},
		{"a leaf in a map", &node{m: map[string]*leaf{"a": {}}}, true},
		{"a cycle without a leaf", loop, false},
		{"bytes", &node{raw: []byte("leaf")}, false},
	} {
		if got := Reaches(tc.v, reflect.TypeFor[leaf]()); got != tc.want {
			t.Errorf("Reaches(%s) = %t, want %t", tc.name, got, tc.want)
		}
	}
}

func TestRetained(t *testing.T) {
	const size = 1 << 16
	got := Retained(8, func() any {
		_ = make([]byte, size) // garbage
		return make([]byte, size)
	})
	if got < 0.95*size || got > 1.1*size {
		t.Errorf("Retained(a %d-byte slice kept, one dropped) = %.0f", size, got)
	}
}
