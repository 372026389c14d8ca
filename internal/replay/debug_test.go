package replay

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDebugTrace prints the events of one recorded round when
// REPLAY_TRACE=game-id:round is set: a tool for diagnosing a mismatch.
func TestDebugTrace(t *testing.T) {
	spec := os.Getenv("REPLAY_TRACE")
	if spec == "" {
		t.Skip("set REPLAY_TRACE=game-id:round")
	}
	id, rs, _ := strings.Cut(spec, ":")
	want, _ := strconv.Atoi(rs)
	for _, g := range loadGames(t) {
		if g.ID != id {
			continue
		}
		o := Watch(g, func(st Step) {
			if st.Round != want {
				return
			}
			fmt.Println(">", st.Action, st.Err)
			for _, e := range st.Events {
				fmt.Println("   ", e)
			}
		})
		fmt.Printf("%+v\n", o)
		if want < len(g.Rounds) {
			fmt.Printf("record: %+v\n", g.Rounds[want].Result)
		}
	}
}
