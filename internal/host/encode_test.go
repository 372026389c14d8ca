package host_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// encodeToy is a Config.Encode for the toy: the event's audience, body or
// notice and time, which must not depend on the viewer's Seq.
func encodeToy(e *host.Event[string]) []byte {
	if e.Notice != nil {
		return fmt.Appendf(nil, "%v|notice %v %d|%d", e.To, e.Notice.Kind, e.Notice.Seat, e.At.UnixNano())
	}
	return fmt.Appendf(nil, "%v|%s|%d", e.To, e.Body, e.At.UnixNano())
}

// timedSettings play every seat by its timer.
var timedSettings = host.Settings{Seats: 4, TurnTime: time.Second, ClaimTime: time.Second}

// TestEncodedEventsShared plays a game with two streams per seat and a
// spectator: every event a stream sends carries the encoding of that
// very event (a seat's private events included, never another's), and
// the streams share the encodings instead of each encoding its own. A
// stream resumed after the game, far behind the ring of recent
// encodings, still gets every event's own.
func TestEncodedEventsShared(t *testing.T) {
	var encodes atomic.Int64
	cfg := host.Config[toyAction, toyView, string]{Encode: func(e *host.Event[string]) []byte {
		if e.Seq != 0 {
			t.Errorf("Encode of an event numbered %d: want it unnumbered", e.Seq)
		}
		encodes.Add(1)
		return encodeToy(e)
	}}
	f := newFixture(t, timedSettings, 2, cfg)
	f.join(4)
	var streams []*follower
	for s := range 4 {
		streams = append(streams, f.follow(s, 0), f.follow(s, 0))
	}
	type watched struct {
		e    host.Event[string]
		wire []byte
	}
	var mu sync.Mutex
	var public []watched
	watchDone := make(chan error, 1)
	go func() {
		watchDone <- f.h.WatchEncoded(context.Background(), f.id, 0, func(e *host.Event[string], wire []byte) error {
			mu.Lock()
			public = append(public, watched{*e, wire})
			mu.Unlock()
			return nil
		})
	}()
	for i := 0; f.info().State != host.Finished; i++ {
		if i > 10000 {
			t.Fatal("the game does not end")
		}
		f.advance(time.Second)
		// The streams keep up, as they do at the pace people play.
		for j, fl := range streams {
			head := f.seq(j / 2)
			fl.waitFor(t, func(it host.Item[toyView, string]) bool {
				return it.Event != nil && it.Event.Seq >= head || it.Snapshot != nil && it.Snapshot.Seq >= head
			})
		}
		for head := f.info().LastSeq; ; time.Sleep(time.Millisecond) {
			mu.Lock()
			n := len(public)
			mu.Unlock()
			if uint64(n) >= head {
				break
			}
		}
	}
	for _, fl := range streams {
		if err := fl.wait(); err != nil {
			t.Fatalf("Follow: %v", err)
		}
	}
	if err := <-watchDone; err != nil {
		t.Fatalf("WatchEncoded: %v", err)
	}
	late := f.follow(2, 1)
	if err := late.wait(); err != nil {
		t.Fatalf("Follow resumed: %v", err)
	}
	streams = append(streams, late)

	distinct := map[string]bool{}
	check := func(who string, e host.Event[string], wire []byte) {
		t.Helper()
		if e.To.Private && (who != fmt.Sprint("seat ", e.To.Seat)) {
			t.Fatalf("%s got a private event of seat %d", who, e.To.Seat)
		}
		e.Seq = 0
		distinct[string(wire)] = true
		if want := encodeToy(&e); !bytes.Equal(wire, want) {
			t.Fatalf("%s: event %+v carries %q, want %q", who, e, wire, want)
		}
	}
	deliveries := 0
	for i, fl := range streams {
		seat := i / 2
		if fl == late {
			seat = 2
		}
		for _, it := range fl.snapshot() {
			if it.Event == nil {
				continue
			}
			deliveries++
			check(fmt.Sprint("seat ", seat), *it.Event, it.Wire)
		}
	}
	for _, w := range public {
		deliveries++
		check("spectator", w.e, w.wire)
	}
	// Once per event, and again for the late stream; two streams that
	// both find an event missing both encode it, which is rare.
	lateEvents := len(late.snapshot())
	if n := encodes.Load(); n > int64(len(distinct)+lateEvents+len(distinct)/10) {
		t.Fatalf("%d encodings of %d events (%d sent, %d of them late): want each encoded once for the streams that keep up",
			n, len(distinct), deliveries, lateEvents)
	}
	t.Logf("%d encodings of %d events (%d sent, %d of them late)", encodes.Load(), len(distinct), deliveries, lateEvents)
}

// TestNoEncodeNoWire checks that without Config.Encode the streams carry
// no encoding.
func TestNoEncodeNoWire(t *testing.T) {
	f := newFixture(t, timedSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	fl := f.follow(1, 1)
	it := fl.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Event != nil })
	if it.Wire != nil {
		t.Fatalf("event %+v carries %q without an Encode", it.Event, it.Wire)
	}
}
