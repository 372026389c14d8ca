package host_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// listed makes 12 tables a second apart - waiting, playing, finished, in
// turn - and two more in the same instant; it returns the host and the
// tables in creation order (the two by id).
func listed(t *testing.T) (*toyHost, []host.Info) {
	t.Helper()
	st := host.NewMemoryStore[toyAction]()
	h, clk, _ := lifeHost(t, st, time.Unix(1_700_000_000, 0), host.Config[toyAction, toyView, string]{})
	ctx := context.Background()
	var ids []string
	for i := range 12 {
		clk.Advance(time.Second)
		switch i % 3 {
		case 0:
			ids = append(ids, fixtureOn(t, h, clk, st, lifeSettings, 1).id)
		case 1:
			f := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true}, 1)
			if err := h.Start(ctx, f.id, f.owner); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, f.id)
		case 2:
			f := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true}, 0)
			if err := h.Start(ctx, f.id, f.owner); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, f.id)
		}
	}
	clk.Advance(time.Second)
	a, b := fixtureOn(t, h, clk, st, lifeSettings, 0).id, fixtureOn(t, h, clk, st, lifeSettings, 0).id
	if b < a {
		a, b = b, a
	}
	ids = append(ids, a, b)
	var all []host.Info
	for _, id := range ids {
		in, err := h.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, in)
	}
	return h, all
}

func idsOf(ins []host.Info) []string {
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in.ID[:8]
	}
	return out
}

// pages lists every page of q, each at most q.Limit long, going on after
// the last table of the previous one.
func pages(t *testing.T, h *toyHost, q host.ListQuery) ([]host.Info, int) {
	t.Helper()
	var out []host.Info
	for n := 1; ; n++ {
		page, more := h.List(q)
		if q.Limit > 0 && len(page) > q.Limit {
			t.Fatalf("page of %d tables, limit %d", len(page), q.Limit)
		}
		out = append(out, page...)
		if !more {
			return out, n
		}
		if len(page) == 0 {
			t.Fatal("an empty page with more after it")
		}
		k := page[len(page)-1].Key()
		q.After = &k
	}
}

// TestList pages through tables in both orders, with and without a state
// filter: the pages together are every selected table once, in order,
// whatever the page size; a page goes on after a place whose table is
// gone.
func TestList(t *testing.T) {
	h, all := listed(t)
	newest := slices.Clone(all)
	slices.Reverse(newest)
	only := func(ins []host.Info, states ...host.State) []host.Info {
		return slices.DeleteFunc(slices.Clone(ins), func(in host.Info) bool { return !slices.Contains(states, in.State) })
	}
	for _, tc := range []struct {
		name string
		q    host.ListQuery
		want []host.Info
	}{
		{"oldest first", host.ListQuery{}, all},
		{"newest first", host.ListQuery{NewestFirst: true}, newest},
		{"finished", host.ListQuery{States: []host.State{host.Finished}}, only(all, host.Finished)},
		{"newest waiting or playing", host.ListQuery{NewestFirst: true, States: []host.State{host.Waiting, host.Playing}}, only(newest, host.Waiting, host.Playing)},
	} {
		for _, limit := range []int{0, 1, 3, 4, 13, 14, 100} {
			q := tc.q
			q.Limit = limit
			got, n := pages(t, h, q)
			if !slices.Equal(idsOf(got), idsOf(tc.want)) {
				t.Errorf("%s by %d = %v, want %v", tc.name, limit, idsOf(got), idsOf(tc.want))
			}
			wantPages := 1
			if limit > 0 && len(tc.want) > limit {
				wantPages = (len(tc.want) + limit - 1) / limit
			}
			if n != wantPages {
				t.Errorf("%s by %d: %d pages, want %d", tc.name, limit, n, wantPages)
			}
		}
	}
	// After a place that no table holds (a table evicted since): the
	// tables after it, in either direction.
	gone := host.ListKey{Created: all[4].Created, ID: strings.Repeat("f", 36)}
	if page, _ := h.List(host.ListQuery{After: &gone, Limit: 2}); !slices.Equal(idsOf(page), idsOf(all[5:7])) {
		t.Errorf("oldest after a gone table = %v, want %v", idsOf(page), idsOf(all[5:7]))
	}
	if page, _ := h.List(host.ListQuery{After: &gone, NewestFirst: true, Limit: 2}); !slices.Equal(idsOf(page), idsOf([]host.Info{all[4], all[3]})) {
		t.Errorf("newest after a gone table = %v, want %v", idsOf(page), idsOf([]host.Info{all[4], all[3]}))
	}
	if page, more := h.List(host.ListQuery{After: &host.ListKey{Created: all[len(all)-1].Created.Add(time.Hour)}}); len(page) != 0 || more {
		t.Errorf("after the newest = %v, %v; want nothing", idsOf(page), more)
	}
}

// TestListKeyCompare orders keys by creation time, then id.
func TestListKeyCompare(t *testing.T) {
	t0 := time.Unix(100, 0)
	for _, tc := range []struct {
		a, b host.ListKey
		want int
	}{
		{host.ListKey{Created: t0, ID: "b"}, host.ListKey{Created: t0.Add(1), ID: "a"}, -1},
		{host.ListKey{Created: t0, ID: "b"}, host.ListKey{Created: t0, ID: "a"}, 1},
		{host.ListKey{Created: t0, ID: "a"}, host.ListKey{Created: t0.UTC(), ID: "a"}, 0},
	} {
		if got := tc.a.Compare(tc.b); got != tc.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
