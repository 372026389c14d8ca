package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	cmcr "github.com/mahjong-authority/authority/internal/client/mcr"
	"github.com/mahjong-authority/authority/internal/table"
)

func init() {
	commands["watch"] = command{summary: "follow a table as a spectator", run: runWatch}
}

type watchOptions struct {
	addr, tableID, rules string
	board                bool
}

const watchUsage = `usage: tablectl watch --addr HOST:PORT --table ID [flags]
Follows a table's public events (behind the table's spectator delay) to the
end of its game, one line for each thing that changes: a discard, a call, a
riichi, a new dora indicator, a win and its payment, a round's end. A
Sichuan table is shown with its exchange, void suits, winners who left
play and running units.
A Chinese Official table shows flowers set aside, and every fan of a win.

Flags:
`

func parseWatch(args []string, stderr io.Writer) (watchOptions, error) {
	var o watchOptions
	fs := newFlags("watch", watchUsage, stderr)
	addrFlag(fs, &o.addr)
	fs.StringVar(&o.tableID, "table", "", "the table `id` to watch")
	fs.StringVar(&o.rules, "rules", "auto", "auto (the table's, from the server), riichi or mcr")
	fs.BoolVar(&o.board, "board", false, "also draw the whole board after every call and at each round's first discard")
	if err := fs.Parse(args); err != nil {
		return o, errUsage
	}
	if fs.NArg() > 0 || o.tableID == "" || o.rules != "auto" && o.rules != "riichi" && o.rules != "mcr" {
		fmt.Fprintln(stderr, "tablectl watch: --table is required")
		fs.Usage()
		return o, errUsage
	}
	return o, nil
}

func runWatch(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	o, err := parseWatch(args, stderr)
	if err != nil {
		return err
	}
	ctx, c, closing, err := connect(o.addr)
	if err != nil {
		return err
	}
	defer closing()
	tb, err := c.GetTable(ctx, o.tableID)
	if err != nil {
		return err
	}
	n := tableNames(tb, client.Spectator)
	fmt.Fprintf(stdout, "Watching table %s (%s, spectator delay %v).\n", o.tableID, tb.GetState(), tb.GetSettings().GetSpectatorDelay().AsDuration())
	if o.rules == "mcr" || o.rules == "auto" && tb.GetSettings().GetRuleSet() == pb.RuleSet_RULE_SET_MCR {
		w := cmcr.Watch(c, o.tableID, client.Options{})
		defer w.Close()
		return watchMCRLoop(ctx, w, stdout, n, o.board)
	}
	if tb.GetSettings().GetRuleSet() == pb.RuleSet_RULE_SET_CLASSICAL {
		return watchClassical(ctx, c, o.tableID, stdout, n, o.board)
	}
	if isSichuan(tb) {
		return watchSichuan(ctx, c, tb, stdout, n, o.board)
	}
	w := c.Watch(o.tableID, client.Options{})
	defer w.Close()
	return watchLoop(ctx, w, stdout, n, o.board)
}

// watchLoop writes a spectator's events as they arrive, one line for what
// each changed; with board it also draws the whole board after a call and
// at a round's first discard, when the deal's hands are on the table.
func watchLoop(ctx context.Context, w *client.Session, out io.Writer, n *names, board bool) error {
	first := false
	for {
		u, err := w.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		e := u.Event
		n.learn(e)
		io.WriteString(out, eventLines(e, n))
		switch e.Body.(type) {
		case table.RoundStarted:
			first = true
		case table.Discarded:
			if board && first {
				io.WriteString(out, renderBoard(w.View(), n, nil))
			}
			first = false
		case table.Called:
			if board {
				io.WriteString(out, renderBoard(w.View(), n, nil))
			}
		}
	}
}
