package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/cluster"
	"github.com/mahjong-authority/authority/internal/host"
)

// Page sizes of ListTables.
const (
	DefaultPageSize = 50
	MaxPageSize     = 1000
)

func (t *tableService) ListTables(ctx context.Context, req *pb.ListTablesRequest) (*pb.ListTablesResponse, error) {
	if c := t.s.cfg.Cluster; c != nil && !c.Forwarded(ctx) {
		r, err := t.listCluster(ctx, c, req)
		return r, toStatus(err)
	}
	r, err := t.list(req)
	return r, toStatus(err)
}

// listCluster lists the tables of every node of a cluster (ClusterPage).
func (t *tableService) listCluster(ctx context.Context, c *cluster.Node, req *pb.ListTablesRequest) (*pb.ListTablesResponse, error) {
	hq, page, err := ParseList(req.GetPageSize(), req.GetPageToken(), req.GetOrder(), req.GetStates())
	if err != nil {
		return nil, err
	}
	infos, more := t.s.list(hq)
	local := make([]*pb.Table, len(infos))
	for i, in := range infos {
		local[i] = t.s.tableToPB(in)
	}
	all, next := ClusterPage(ctx, c, t.s.cfg.Log, hq, page, local, more,
		func(tb *pb.Table) host.ListKey {
			return host.ListKey{Created: tb.GetCreateTime().AsTime(), ID: tb.GetTableId()}
		},
		func(ctx context.Context, cc grpc.ClientConnInterface) ([]*pb.Table, bool, error) {
			r, err := pb.NewTableServiceClient(cc).ListTables(ctx, req)
			return r.GetTables(), r.GetNextPageToken() != "", err
		})
	return &pb.ListTablesResponse{Tables: all, NextPageToken: next}, nil
}

// ClusterPage makes a page of every node's tables: this node's page
// (local, and whether more follow) and the same request's page from each
// other node (ask, as a forwarded call), merged in the query's order, a
// table listed by two nodes (moving between them) once, cut to the page
// size, with the token of the next page (a page token is a place in the
// order, valid on every node). A node that does not answer is left out:
// its tables are being taken over by the others. Every game's API lists
// its tables with it in a cluster.
func ClusterPage[T any](ctx context.Context, c *cluster.Node, log *zap.Logger, q host.ListQuery, page func([]host.Info, bool) string,
	local []T, more bool, key func(T) host.ListKey, ask func(context.Context, grpc.ClientConnInterface) ([]T, bool, error)) ([]T, string) {
	all := slices.Clone(local)
	seen := make(map[string]bool, len(local))
	for _, tb := range local {
		seen[key(tb).ID] = true
	}
	for _, r := range c.Ask(ctx, func(ctx context.Context, cc grpc.ClientConnInterface) (any, error) {
		tables, more, err := ask(ctx, cc)
		return answer[T]{tables, more}, err
	}) {
		if r.Err != nil {
			log.Warn("list tables: a node did not answer", zap.String("node", r.Node.ID), zap.Error(r.Err))
			continue
		}
		a := r.Reply.(answer[T])
		more = more || a.more
		for _, tb := range a.tables {
			if id := key(tb).ID; !seen[id] {
				seen[id] = true
				all = append(all, tb)
			}
		}
	}
	slices.SortFunc(all, func(a, b T) int {
		if q.NewestFirst {
			return key(b).Compare(key(a))
		}
		return key(a).Compare(key(b))
	})
	if q.Limit > 0 && len(all) > q.Limit {
		all, more = all[:q.Limit], true
	}
	if len(all) == 0 {
		return all, ""
	}
	last := key(all[len(all)-1])
	return all, page([]host.Info{{ID: last.ID, Created: last.Created}}, more)
}

// answer is one node's page.
type answer[T any] struct {
	tables []T
	more   bool
}

func (t *tableService) list(req *pb.ListTablesRequest) (*pb.ListTablesResponse, error) {
	hq, page, err := ParseList(req.GetPageSize(), req.GetPageToken(), req.GetOrder(), req.GetStates())
	if err != nil {
		return nil, err
	}
	infos, more := t.s.list(hq)
	out := &pb.ListTablesResponse{Tables: make([]*pb.Table, len(infos))}
	for i, in := range infos {
		out.Tables[i] = t.s.tableToPB(in)
	}
	out.NextPageToken = page(infos, more)
	return out, nil
}

// ParseList checks a ListTables request - page size, page token, order,
// states - and returns the host's query and the function that makes the
// token of the next page from the page listed ("" when it is the last).
// Every game's API lists its tables with it.
func ParseList(pageSize int32, token string, order pb.TableOrder, states []pb.TableState) (host.ListQuery, func([]host.Info, bool) string, error) {
	size := int(pageSize)
	switch {
	case size < 0:
		return host.ListQuery{}, nil, fieldError("page_size", fmt.Errorf("%d: %w", size, ErrMalformed))
	case size == 0:
		size = DefaultPageSize
	case size > MaxPageSize:
		size = MaxPageSize
	}
	q := listQuery{order: order}
	if _, ok := pb.TableOrder_name[int32(q.order)]; !ok {
		return host.ListQuery{}, nil, fieldError("order", fmt.Errorf("%v: %w", q.order, ErrMalformed))
	}
	if q.order == pb.TableOrder_TABLE_ORDER_UNSPECIFIED {
		q.order = pb.TableOrder_TABLE_ORDER_NEWEST_FIRST
	}
	hq := host.ListQuery{NewestFirst: q.order == pb.TableOrder_TABLE_ORDER_NEWEST_FIRST, Limit: size}
	for _, st := range states {
		switch st {
		case pb.TableState_TABLE_STATE_WAITING, pb.TableState_TABLE_STATE_PLAYING, pb.TableState_TABLE_STATE_FINISHED:
		default:
			return host.ListQuery{}, nil, fieldError("states", fmt.Errorf("%v: %w", st, ErrMalformed))
		}
		if q.states&(1<<st) == 0 {
			q.states |= 1 << st
			hq.States = append(hq.States, host.State(st))
		}
	}
	if token != "" {
		after, err := q.decode(token)
		if err != nil {
			return host.ListQuery{}, nil, fieldError("page_token", err)
		}
		hq.After = &after
	}
	page := func(infos []host.Info, more bool) string {
		if more && len(infos) > 0 {
			return q.encode(infos[len(infos)-1].Key())
		}
		return ""
	}
	return hq, page, nil
}

// listQuery is what a page token is bound to besides its place: the
// order and the states of the listing it continues.
type listQuery struct {
	order  pb.TableOrder
	states uint8 // a bit for each TableState asked for
}

// pageTokenVersion is the first byte of a page token.
const pageTokenVersion = 1

// errBadToken is the error of a page token the server did not make, or
// made for another listing.
var errBadToken = errors.New("not a page token of this listing")

// encode makes the page token of the listing that goes on after key: the
// version, the order, the states, the key's creation time (Unix
// nanoseconds) and id, and a CRC-32C of all that, in unpadded base64url.
// It is opaque to clients; the CRC makes a mangled token fail to decode.
func (q listQuery) encode(key host.ListKey) string {
	b := make([]byte, 0, 3+8+len(key.ID)+4)
	b = append(b, pageTokenVersion, byte(q.order), q.states)
	b = binary.BigEndian.AppendUint64(b, uint64(key.Created.UnixNano()))
	b = append(b, key.ID...)
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	return base64.RawURLEncoding.EncodeToString(b)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// decode reads a page token of the listing q.
func (q listQuery) decode(tok string) (host.ListKey, error) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return host.ListKey{}, fmt.Errorf("%w: %w: %v", errBadToken, ErrMalformed, err)
	}
	if len(b) < 3+8+1+4 || len(b) > 3+8+maxIDLen+4 {
		return host.ListKey{}, fmt.Errorf("%w: %w: %d bytes", errBadToken, ErrMalformed, len(b))
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum || body[0] != pageTokenVersion {
		return host.ListKey{}, fmt.Errorf("%w: %w", errBadToken, ErrMalformed)
	}
	if pb.TableOrder(body[1]) != q.order || body[2] != q.states {
		return host.ListKey{}, fmt.Errorf("%w: %w: it continues a listing in another order or of other states", errBadToken, ErrMalformed)
	}
	nanos := int64(binary.BigEndian.Uint64(body[3:11]))
	return host.ListKey{Created: time.Unix(0, nanos), ID: string(body[11:])}, nil
}

// list lists the tables of every rule set: each host's page after the
// same key, merged in the page's order and cut to its size. The merged
// page is the first of all tables, since each host's page holds the first
// of its own.
func (s *Server) list(q host.ListQuery) ([]host.Info, bool) {
	if len(s.sets) == 1 {
		return s.sets[0].tables.List(q)
	}
	var all []host.Info
	more := false
	for _, h := range s.sets {
		infos, m := h.tables.List(q)
		all = append(all, infos...)
		more = more || m
	}
	slices.SortFunc(all, func(a, b host.Info) int {
		if q.NewestFirst {
			return b.Key().Compare(a.Key())
		}
		return a.Key().Compare(b.Key())
	})
	if q.Limit > 0 && len(all) > q.Limit {
		all, more = all[:q.Limit], true
	}
	return all, more
}
