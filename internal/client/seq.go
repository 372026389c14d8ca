package client

import "fmt"

// SeqFault is what is wrong with an event's sequence number.
type SeqFault uint8

// The sequence faults.
const (
	SeqOK     SeqFault = iota
	SeqRepeat          // the same number again: the event was already delivered
	SeqBack            // a smaller number: the stream went back
	SeqGap             // numbers were skipped: an event was lost
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
// The server numbers each seat's stream, and the spectator stream, 1, 2,
// 3, ... over what that viewer may see, with no holes (a hole would tell a
// seat that another seat got a private event), so any gap (seq != prev+1)
// is a fault: an event was lost.
func CheckSeq(prev, seq uint64) SeqFault {
	switch {
	case seq == prev:
		return SeqRepeat
	case seq < prev:
		return SeqBack
	case seq != prev+1:
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
