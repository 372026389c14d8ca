package client

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
