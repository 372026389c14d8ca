// Package storetest is the conformance test of host.Store: scenarios
// written as data (testdata/*.txt) that every store runs the same way,
// so that the bbolt store, the JetStream store and the memory store keep
// one contract. A store's own tests call Run with a Subject that says how
// to open, close, crash and damage it.
//
// A scenario is one command a line; "# ..." is a comment. After "->"
// comes what the command must give (without it, "ok"):
//
//	create ID                 a table (created in the order of the lines)
//	append ID N               N more entries; entry k of a table is Entry(k)
//	appendbig ID              an entry too large to read back -> too large
//	snapshot ID N             a snapshot covering N entries (State, Events of SnapState, SnapEvents)
//	finish ID T               its game ended T seconds after T0
//	delete ID
//	prune T                   -> how many tables finished before T0+T seconds it deleted
//	reopen                    Close, then Open the same data
//	crash                     Open what a process killed at this moment leaves
//	damage ID                 Close, make ID's first entry undecodable, Open
//	load                      -> every table Load passes, "; " between them, then "damaged=ID,..."
//	table ID                  -> LoadTable: "ID snap=N entries=A..B" (snap=-, entries=none)
//	entries ID FROM           -> LoadEntries: "A..B" or "none"
//	events ID N               -> LoadEvents: ok if they are SnapEvents(ID, N), or no events
//
// Errors print as "no table", "no snapshot", "damaged", "too large" or
// "error". Every entry, snapshot and record read back is compared with
// what was written, field by field.
package storetest

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

//go:embed testdata/*.txt
var scenarios embed.FS

// Move is the action of the scenarios: two small numbers.
type Move struct{ Seat, N uint8 }

// MoveCodec is a store.Codec of Move.
type MoveCodec struct{}

// AppendAction appends a's two bytes.
func (MoveCodec) AppendAction(dst []byte, a Move) []byte { return append(dst, a.Seat, a.N) }

// DecodeAction decodes two bytes.
func (MoveCodec) DecodeAction(b []byte) (Move, error) {
	if len(b) != 2 {
		return Move{}, fmt.Errorf("move of %d bytes", len(b))
	}
	return Move{b[0], b[1]}, nil
}

// T0 is the time of the scenarios' first entry.
var T0 = time.Unix(1_700_000_000, 123456789)

// Entry is entry k (from 1) of table id in the scenarios: an action, a
// notice with the fields of a join and a reservation, or a release, in
// turn, so that every field of the encoding is read back.
func Entry(id string, k int) host.Entry[Move] {
	at := T0.Add(time.Duration(k) * time.Second)
	switch k % 3 {
	case 0:
		return host.Entry[Move]{At: at, Kind: host.EntryAction, Actor: k % 4, Action: Move{uint8(k % 4), uint8(k)}, RequestID: fmt.Sprintf("%s-req-%d", id, k)}
	case 1:
		return host.Entry[Move]{At: at, Kind: host.EntryNotice, Actor: k % 4, Notice: host.Notice{Kind: host.NoticeJoined, Seat: k % 4, Name: "ann", PlayerID: "p-" + id},
			TokenHash: [32]byte{byte(k), 2, 3}, Entropy: []byte("entropy " + id), TicketID: "ticket", Expires: at.Add(time.Hour)}
	default:
		return host.Entry[Move]{At: at, Kind: host.EntryRelease, Actor: host.System}
	}
}

// SnapState and SnapEvents are the State and Events of the snapshot of
// table id that covers n entries: a few kB, as a round's.
func SnapState(id string, n uint64) []byte {
	return bytes.Repeat(fmt.Appendf(nil, "state %s %d;", id, n), 200)
}

// SnapEvents is the Events of that snapshot.
func SnapEvents(id string, n uint64) []byte {
	return bytes.Repeat(fmt.Appendf(nil, "events %s %d;", id, n), 500)
}

// Record is the record of table id.
func Record(id string, i int) host.TableRecord {
	return host.TableRecord{ID: id, Settings: host.Settings{Seats: 4, TurnTime: time.Second, ClaimDwell: 2 * time.Second},
		Meta: []byte("meta " + id), Created: T0.Add(time.Duration(i) * time.Minute).UTC(), OwnerHash: [32]byte{byte(i), 7}}
}

// Store is a store under test.
type Store = host.Store[Move]

// Subject says how to run the scenarios on one kind of store.
type Subject struct {
	// Open opens the store whose data is in dir: empty at first, then
	// what the store last left there (after Close, Crash or Damage).
	Open func(t testing.TB, dir string) Store
	// Close closes a store Open returned.
	Close func(s Store) error
	// Crash returns a new directory holding what a process killed at
	// this moment would leave of the open store in dir (a copy of its
	// files); the store stays open. Nil for a store that keeps nothing
	// outside the process (the scenario reopens the same store).
	Crash func(t testing.TB, dir string) string
	// Damage makes the first log entry of table id undecodable in the
	// closed store in dir. Nil skips the scenarios that damage.
	Damage func(t testing.TB, dir, id string)
	// Encodes says the store encodes entries (it refuses one it could not
	// read back); false skips the scenarios that need it.
	Encodes bool
}

// Run runs every scenario of testdata on the subject, each in a
// directory of its own.
func Run(t *testing.T, sub Subject) {
	names, err := scenarios.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		t.Run(strings.TrimSuffix(n.Name(), ".txt"), func(t *testing.T) {
			raw, err := scenarios.ReadFile(path.Join("testdata", n.Name()))
			if err != nil {
				t.Fatal(err)
			}
			r := &runner{t: t, sub: sub, dir: t.TempDir(), counts: map[string]int{}, created: map[string]int{}}
			r.s = sub.Open(t, r.dir)
			defer func() {
				if r.s != nil {
					if err := sub.Close(r.s); err != nil {
						t.Errorf("Close: %v", err)
					}
				}
			}()
			sc := bufio.NewScanner(bytes.NewReader(raw))
			for line := 1; sc.Scan(); line++ {
				text := strings.TrimSpace(sc.Text())
				if text == "" || strings.HasPrefix(text, "#") {
					continue
				}
				cmd, want, ok := strings.Cut(text, "->")
				want = strings.TrimSpace(want)
				if !ok {
					want = "ok"
				}
				if got := r.do(strings.Fields(cmd)); got != want {
					t.Fatalf("%s:%d: %s\n got %s\nwant %s", n.Name(), line, strings.TrimSpace(cmd), got, want)
				}
			}
		})
	}
}

// runner runs one scenario.
type runner struct {
	t       *testing.T
	sub     Subject
	dir     string
	s       Store
	counts  map[string]int // entries written per table
	created map[string]int // the order of each table's record
	n       int
}

var ctx = context.Background()

func (r *runner) do(f []string) string {
	t := r.t
	arg := func(i int) int {
		if i >= len(f) {
			t.Fatalf("%v: missing argument %d", f, i)
		}
		n, err := strconv.Atoi(f[i])
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		return n
	}
	switch f[0] {
	case "create":
		r.n++
		if err := r.s.Create(ctx, Record(f[1], r.n)); err != nil {
			return errText(err)
		}
		r.counts[f[1]], r.created[f[1]] = 0, r.n
		return "ok"
	case "append":
		id, n := f[1], arg(2)
		es := make([]host.Entry[Move], n)
		for i := range es {
			es[i] = Entry(id, r.counts[id]+i+1)
		}
		if err := r.s.Append(ctx, id, es...); err != nil {
			return errText(err)
		}
		r.counts[id] += n
		return "ok"
	case "appendbig":
		if !r.sub.Encodes {
			t.Skip("the store encodes no entries")
		}
		e := Entry(f[1], r.counts[f[1]]+1)
		e.RequestID = strings.Repeat("r", 4<<10)
		return errText(r.s.Append(ctx, f[1], e))
	case "snapshot":
		id, n := f[1], uint64(arg(2))
		return errText(r.s.SaveSnapshot(ctx, id, host.TableSnapshot{Entries: n, State: SnapState(id, n), Events: SnapEvents(id, n)}))
	case "finish":
		return errText(r.s.Finish(ctx, f[1], T0.Add(time.Duration(arg(2))*time.Second)))
	case "delete":
		return errText(r.s.Delete(ctx, f[1]))
	case "prune":
		n, err := r.s.Prune(ctx, T0.Add(time.Duration(arg(1))*time.Second))
		if err != nil {
			return errText(err)
		}
		return strconv.Itoa(n)
	case "reopen":
		r.close()
		r.s = r.sub.Open(t, r.dir)
		return "ok"
	case "crash":
		if r.sub.Crash == nil {
			return "ok" // nothing outside the process: the same store goes on
		}
		dir := r.sub.Crash(t, r.dir)
		r.close() // the files of the crash are a copy: this changes nothing in them
		r.dir = dir
		r.s = r.sub.Open(t, r.dir)
		return "ok"
	case "damage":
		if r.sub.Damage == nil {
			t.Skip("the store cannot be damaged")
		}
		r.close()
		r.sub.Damage(t, r.dir, f[1])
		r.s = r.sub.Open(t, r.dir)
		return "ok"
	case "load":
		var out []string
		err := r.s.Load(ctx, func(rec host.TableRecord, snap *host.TableSnapshot, es []host.Entry[Move]) error {
			if snap != nil && snap.Events != nil {
				t.Errorf("Load passed the Events of %s's snapshot", rec.ID)
			}
			out = append(out, r.render(rec, snap, es))
			return nil
		})
		var damaged []string
		for _, e := range unjoin(err) {
			var d *host.DamagedError
			if !errors.As(e, &d) || !errors.Is(e, host.ErrCorruptLog) {
				return "error " + e.Error()
			}
			damaged = append(damaged, d.ID)
		}
		if len(damaged) > 0 {
			slices.Sort(damaged)
			out = append(out, "damaged="+strings.Join(damaged, ","))
		}
		if len(out) == 0 {
			return "none"
		}
		return strings.Join(out, "; ")
	case "table":
		rec, snap, es, err := r.s.LoadTable(ctx, f[1])
		if err != nil {
			return errText(err)
		}
		return r.render(rec, snap, es)
	case "entries":
		id := f[1]
		es, err := r.s.LoadEntries(ctx, id, uint64(arg(2)))
		if err != nil {
			return errText(err)
		}
		return r.entries(id, arg(2), es)
	case "events":
		id, n := f[1], uint64(arg(2))
		ev, err := r.s.LoadEvents(ctx, id, n)
		if errors.Is(err, host.ErrNoTable) || errors.Is(err, host.ErrNoSnapshot) {
			// Of a table the store does not hold, either says it (the
			// memory store: no snapshot; bbolt: no table).
			return "no events"
		}
		if err != nil {
			return errText(err)
		}
		if !bytes.Equal(ev, SnapEvents(id, n)) {
			return fmt.Sprintf("events of %d bytes, not those of the snapshot", len(ev))
		}
		return "ok"
	}
	t.Fatalf("unknown command %q", f[0])
	return ""
}

func (r *runner) close() {
	if err := r.sub.Close(r.s); err != nil {
		r.t.Fatalf("Close: %v", err)
	}
	r.s = nil
}

// render prints a table as read back, after checking its record and
// snapshot against what was written.
func (r *runner) render(rec host.TableRecord, snap *host.TableSnapshot, es []host.Entry[Move]) string {
	id := rec.ID
	if want := Record(id, r.created[id]); !reflect.DeepEqual(rec, want) {
		r.t.Errorf("record of %s\n%+v\nwant\n%+v", id, rec, want)
	}
	s, from := "-", 0
	if snap != nil {
		s, from = strconv.FormatUint(snap.Entries, 10), int(snap.Entries)
		if !bytes.Equal(snap.State, SnapState(id, snap.Entries)) {
			r.t.Errorf("snapshot of %s at %d: State of %d bytes is not the one saved", id, snap.Entries, len(snap.State))
		}
	}
	return fmt.Sprintf("%s snap=%s entries=%s", id, s, r.entries(id, from, es))
}

// entries prints entries from+1... of table id as a range, after checking
// each against what was written.
func (r *runner) entries(id string, from int, es []host.Entry[Move]) string {
	if len(es) == 0 {
		return "none"
	}
	for i, e := range es {
		want := Entry(id, from+i+1)
		if !e.At.Equal(want.At) || !e.Expires.Equal(want.Expires) {
			r.t.Errorf("entry %d of %s: times %v, %v, want %v, %v", from+i+1, id, e.At, e.Expires, want.At, want.Expires)
		}
		e.At, e.Expires = want.At, want.Expires
		if !reflect.DeepEqual(e, want) {
			r.t.Errorf("entry %d of %s\n%+v\nwant\n%+v", from+i+1, id, e, want)
		}
	}
	return fmt.Sprintf("%d..%d", from+1, from+len(es))
}

// errText names an error by what it means.
func errText(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, host.ErrNoTable):
		return "no table"
	case errors.Is(err, host.ErrNoSnapshot):
		return "no snapshot"
	case errors.Is(err, host.ErrCorruptLog):
		return "damaged"
	case errors.Is(err, store.ErrTooLarge):
		return "too large"
	}
	return "error"
}

// unjoin splits an errors.Join.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
