package client

import "fmt"

// SeqFault is what is wrong with an event's sequence number.
type SeqFault uint8

// The sequence faults.
const (
	SeqOK     SeqFault = iota
	SeqRepeat          // the same number again: the event was already delivered
	SeqBack            // a smaller number: the stream went back
	SeqGap             // numbers were skipped (only with contiguous numbering)
)

var seqFaultNames = [...]string{"ok", "repeat", "back", "gap"}

func (f SeqFault) String() string {
	if int(f) < len(seqFaultNames) {
		return seqFaultNames[f]
	}
	return "invalid"
}

// CheckSeq is the one place that judges a stream's sequence numbers: seq is
// the number of the event received, prev the number of the event (or
// snapshot) before it on the stream, 0 at the start.
//
// The numbering the server uses decides what a gap is:
//
//   - table-wide numbering (contiguous false, the server's numbering
//     today): a seat sees a subsequence of the table's events, so numbers
//     skip; only a repeat or a step back is a fault.
//   - per-seat numbering (contiguous true): each seat's stream and the
//     spectator stream are numbered 1, 2, 3, ... with no holes, so ANY gap
//     (seq != prev+1) is a fault as well: an event was lost.
//
// Session.Options.Contiguous chooses; switch it on once the server numbers
// per seat.
func CheckSeq(prev, seq uint64, contiguous bool) SeqFault {
	switch {
	case seq == prev:
		return SeqRepeat
	case seq < prev:
		return SeqBack
	case contiguous && seq != prev+1:
		return SeqGap
	}
	return SeqOK
}

// SeqError is a sequence fault a session saw.
type SeqError struct {
	Fault     SeqFault
	Prev, Seq uint64
}

func (e *SeqError) Error() string {
	return fmt.Sprintf("client: sequence %s: event %d after %d", e.Fault, e.Seq, e.Prev)
}
