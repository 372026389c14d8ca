package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"unicode"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// What the commands share: their flag sets, and for the clients of a
// running server (play, watch, bots) its address, the connection and the
// seats' names.

// newFlags is a command's flag set: parse errors and the usage go to
// stderr, the usage text first, then the flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// addrFlag adds --addr, the server's address.
func addrFlag(fs *flag.FlagSet, addr *string) {
	fs.StringVar(addr, "addr", "127.0.0.1:7400", "server `address`")
}

// rulePreset is the preset of --rules: hanchan (east-south, the default)
// or tonpuu (east only).
func rulePreset(rules string) pb.RulePreset {
	if rules == "tonpuu" {
		return pb.RulePreset_RULE_PRESET_TENHOU_TONPUU
	}
	return pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN
}

// connect returns a client of the server at addr and a context that ends
// when the user interrupts the command (Ctrl-C); closing releases both.
func connect(addr string) (ctx context.Context, c *client.Client, closing func(), err error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if c, err = client.Dial(addr); err != nil {
		stop()
		return nil, nil, nil, err
	}
	return ctx, c, func() { c.Close(); stop() }, nil
}

// tableNames returns the seats' names of tb as viewer sees them.
func tableNames(tb *pb.Table, viewer table.Seat) *names {
	n := &names{viewer: viewer}
	for i, si := range tb.GetSeats() {
		if i < table.NumSeats {
			n.name[i] = seatName(si)
		}
	}
	return n
}

func seatName(si *pb.SeatInfo) string {
	if si.GetBot() && !si.GetTaken() {
		return "bot"
	}
	return printable(si.GetName())
}

// printable escapes what a terminal would run rather than show (escape
// sequences, newlines, bidi overrides) in a name another player chose.
func printable(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // '\x1b'
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// learn takes a player's name from the notice of its joining.
func (n *names) learn(e client.Event) {
	if no := e.Notice; no != nil && no.GetKind() == pb.SeatNotice_KIND_JOINED && no.GetSeat() < table.NumSeats {
		n.name[no.GetSeat()] = printable(no.GetName())
	}
}
