package client

import pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"

// AnsweredCalls is, for the tests of package client_test that watch a
// Mux's stream, the calls a message the Mux received answers without an
// error (m is what the stream's RecvMsg filled).
func AnsweredCalls(m any) []uint64 {
	var calls []uint64
	for _, it := range m.(*muxFrame).items {
		if it.kind == itemAnswer && it.st == nil {
			calls = append(calls, it.call)
		}
	}
	return calls
}

// SentAct is, for the same tests, the action a message the Mux sent
// carries (m is what the stream's SendMsg got), if it is one.
func SentAct(m any) (call uint64, req *pb.ActRequest, ok bool) {
	if a, ok := m.(*muxAct); ok {
		return a.call, a.req, true
	}
	return 0, nil, false
}
