package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// The room service's side (docs/rooms.md): API keys, tables with
// reserved seats and their tickets, the results feed.

func init() {
	commands["backend-key"] = command{summary: "make a room-service API key, or hash one for --backend-keys", run: runBackendKey}
	commands["room"] = command{summary: "act as a room service: create a table with reserved seats, close one, follow the results", run: runRoom}
}

const backendKeyUsage = `usage: tablectl backend-key new|hash

new prints a fresh API key on the first line and, on the second, its entry
for the server's --backend-keys file (keys[]); give the key to the room
service and the entry to the server. hash reads a key from standard input
and prints the hex SHA-256 the file holds.
`

func runBackendKey(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprint(stderr, backendKeyUsage)
		return errUsage
	}
	switch args[0] {
	case "new":
		k, err := backend.NewKey()
		if err != nil {
			return err
		}
		entry, _ := json.Marshal(backend.FileKey{Name: "rooms", SHA256: backend.Hash(k)})
		fmt.Fprintln(stdout, k)
		fmt.Fprintln(stdout, string(entry))
		return nil
	case "hash":
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		k := strings.TrimSpace(line)
		if !strings.HasPrefix(k, backend.KeyPrefix) {
			return fmt.Errorf("backend-key hash: a key starts with %s", backend.KeyPrefix)
		}
		fmt.Fprintln(stdout, backend.Hash(k))
		return nil
	}
	fmt.Fprint(stderr, backendKeyUsage)
	return errUsage
}

const roomUsage = `usage: tablectl room create|close|watch --addr HOST:PORT [flags]

create  creates a table with a seat reserved for each --player ID:NAME (in
        seat order) and prints one line per seat: seat, player id, ticket.
        Hand each player their ticket; they join with
        tablectl play --ticket TICKET.
close   closes the --table that has not started (with --abandon, one in
        play too: its game ends there, a draw).
watch   follows the results feed after --after, one JSON object per line,
        until interrupted.

The API key comes from --backend-key or the environment variable
AUTHORITY_BACKEND_KEY (which keeps it out of the process list).

Flags:
`

// players is the repeated --player flag.
type players []*pb.Reservation

func (p *players) String() string { return fmt.Sprint(len(*p)) }

func (p *players) Set(s string) error {
	id, name, _ := strings.Cut(s, ":")
	if id == "" {
		return errors.New("want ID or ID:NAME")
	}
	*p = append(*p, &pb.Reservation{Seat: uint32(len(*p)), PlayerId: id, Name: name})
	return nil
}

func runRoom(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || !slices.Contains([]string{"create", "close", "watch"}, args[0]) {
		fmt.Fprint(stderr, roomUsage)
		return errUsage
	}
	verb := args[0]
	var addr, key, tableID, rules string
	var after uint64
	var ttl time.Duration
	var ps players
	var bots, abandon bool
	fs := newFlags("room "+verb, roomUsage, stderr)
	addrFlag(fs, &addr)
	fs.StringVar(&key, "backend-key", os.Getenv("AUTHORITY_BACKEND_KEY"), "the room service's API `key`")
	fs.StringVar(&tableID, "table", "", "the table (close)")
	fs.StringVar(&rules, "rules", "hanchan", "hanchan or tonpuu (create)")
	fs.Var(&ps, "player", "reserve the next seat for `ID:NAME` (create; repeat up to 4 times)")
	fs.DurationVar(&ttl, "ttl", 0, "how long the tickets are good for (create; 0: the server's default, 10m)")
	fs.BoolVar(&abandon, "abandon", false, "close a table in play too: its game ends, a draw (close)")
	fs.BoolVar(&bots, "bots", false, "bots take the seats still empty when the table starts (create)")
	fs.Uint64Var(&after, "after", 0, "resume the feed after this `cursor` (watch)")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		return errUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	if key != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "x-api-key", key)
	}
	rooms := pb.NewRoomServiceClient(conn)
	switch verb {
	case "create":
		req := &pb.RoomServiceCreateTableRequest{Settings: &pb.TableSettings{Rules: rulePreset(rules), FillWithBots: bots}, Reservations: ps}
		if ttl > 0 {
			req.TicketTtl = durationpb.New(ttl)
		}
		r, err := rooms.CreateTable(ctx, req)
		if err != nil {
			return fmt.Errorf("create: %s", refusal(err))
		}
		fmt.Fprintf(stdout, "table %s\n", r.GetTable().GetTableId())
		for _, t := range r.GetTickets() {
			fmt.Fprintf(stdout, "seat %d\t%s\t%s\n", t.GetSeat(), printable(t.GetPlayerId()), t.GetTicket())
		}
		return nil
	case "close":
		if _, err := rooms.CloseTable(ctx, &pb.CloseTableRequest{TableId: tableID, Abandon: abandon}); err != nil {
			return fmt.Errorf("close: %s", refusal(err))
		}
		fmt.Fprintf(stdout, "table %s closed\n", tableID)
		return nil
	}
	return watchResults(ctx, rooms, after, stdout)
}

// watchResults prints the feed after cursor after until ctx ends.
func watchResults(ctx context.Context, rooms pb.RoomServiceClient, after uint64, stdout io.Writer) error {
	st, err := rooms.WatchResults(ctx, &pb.WatchResultsRequest{AfterCursor: after})
	if err != nil {
		return fmt.Errorf("watch: %s", refusal(err))
	}
	for {
		r, err := st.Recv()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("watch: %s", refusal(err))
		}
		line, _ := protojson.MarshalOptions{UseProtoNames: true}.Marshal(r.GetEvent())
		fmt.Fprintln(stdout, string(line))
	}
}

// joinTicket takes the seat of a join ticket. The table is tableID, or
// else the one an opaque ticket names (a signed ticket needs --table).
func joinTicket(ctx context.Context, c *client.Client, tableID, ticket string, entropy []byte) (client.Seat, error) {
	if tableID == "" {
		if rest, ok := strings.CutPrefix(ticket, "tkt1."); ok {
			tableID, _, _ = strings.Cut(rest, ".")
		}
	}
	if tableID == "" {
		return client.Seat{}, errors.New("play: --table is needed with a signed ticket")
	}
	r, err := c.Tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: tableID, Ticket: ticket, Entropy: entropy})
	if err != nil {
		return client.Seat{}, fmt.Errorf("join table %s: %s", tableID, refusal(err))
	}
	return client.Seat{TableID: tableID, Seat: table.Seat(r.GetSeat()), Token: r.GetSeatToken(), Entropy: entropy}, nil
}
