package cluster

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Forwarding: a call or stream whose request names a table (a string
// field table_id, found by reflection, so every service of every game is
// covered) that another node owns goes to that node, over one pooled
// connection per node. Metadata (API keys, tokens), the deadline, the
// response's header and trailer and the error with its details pass both
// ways; a forwarded call carries ForwardedKey, and the node that receives
// it serves it itself, so a call is forwarded at most once.

// The metadata of a forwarded call: the id of the node that forwarded it,
// and the cluster's forwarding token, which proves it (a client can send
// any header; only the nodes know the token).
const (
	ForwardedKey      = "authority-forwarded-by"
	ForwardedTokenKey = "authority-forwarded-token"
)

// Forwarded reports whether the incoming call in ctx was forwarded by a
// node of n's cluster (which applied its per-connection limits already):
// it carries the cluster's forwarding token. Always false on a nil Node
// (no cluster), whatever the call's headers say.
func (n *Node) Forwarded(ctx context.Context) bool {
	if n == nil {
		return false
	}
	tok := metadata.ValueFromIncomingContext(ctx, ForwardedTokenKey) // no copy of the whole metadata
	return len(tok) == 1 && subtle.ConstantTimeCompare([]byte(tok[0]), []byte(n.token)) == 1
}

// Routing configures the interceptors.
type Routing struct {
	// NoForward refuses, rather than forwards, the calls for a table
	// another node owns.
	NoForward bool
	// Elsewhere makes the error of a call for a table owned at addr that
	// was not forwarded: forwarding is off, or the owner did not answer
	// (cause). The server's TABLE_ELSEWHERE.
	Elsewhere func(addr string, cause error) error
	// Methods selects the methods that may be forwarded (full method
	// name prefixes, such as "/mahjong.authority.v1.TableService/").
	Methods []string
	// Held, when set, reports whether this node's hosts hold a table in
	// memory: such a call is served here without a lookup (a table this
	// node lost is fenced by the store at its next append).
	Held func(id string) bool
}

// UnaryInterceptor forwards the unary calls for a table another node
// owns.
func (n *Node) UnaryInterceptor(r Routing) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		if !r.selects(info.FullMethod) {
			return next(ctx, req)
		}
		addr, ok, err := n.elsewhere(ctx, req, r.Held)
		if err != nil {
			return nil, err
		}
		if !ok {
			return next(ctx, req)
		}
		if r.NoForward {
			return nil, r.Elsewhere(addr, nil)
		}
		_, out, err := messageTypes(info.FullMethod)
		if err != nil {
			return next(ctx, req)
		}
		cc, err := n.pool.conn(addr)
		if err != nil {
			return nil, r.Elsewhere(addr, err)
		}
		reply := out.New().Interface()
		var hdr, trl metadata.MD
		err = cc.Invoke(n.outgoing(ctx), info.FullMethod, req, reply, grpc.Header(&hdr), grpc.Trailer(&trl))
		if len(hdr) > 0 {
			_ = grpc.SetHeader(ctx, hdr)
		}
		if len(trl) > 0 {
			_ = grpc.SetTrailer(ctx, trl)
		}
		if err != nil {
			if unreachable(err) {
				return nil, r.Elsewhere(addr, err)
			}
			return nil, err
		}
		return reply, nil
	}
}

// StreamInterceptor forwards the server streams (one request, many
// responses: StreamEvents, Spectate) for a table another node owns, piping
// the owner's responses to the client until either side ends. A stream
// the client streams on too (Multiplex, whose items name many tables) is
// served where it lands: its handler asks Elsewhere for each item.
func (n *Node) StreamInterceptor(r Routing) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		if !r.selects(info.FullMethod) || !info.IsServerStream || info.IsClientStream || n.Forwarded(ss.Context()) {
			return next(srv, ss)
		}
		in, out, err := messageTypes(info.FullMethod)
		if err != nil {
			return next(srv, ss)
		}
		req := in.New().Interface()
		if err := ss.RecvMsg(req); err != nil {
			return err
		}
		ctx := ss.Context()
		addr, ok, err := n.elsewhere(ctx, req, r.Held)
		if err != nil {
			return err
		}
		if !ok {
			return next(srv, &replayed{ServerStream: ss, first: req})
		}
		if r.NoForward {
			return r.Elsewhere(addr, nil)
		}
		cc, err := n.pool.conn(addr)
		if err != nil {
			return r.Elsewhere(addr, err)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		cs, err := cc.NewStream(n.outgoing(ctx), &grpc.StreamDesc{ServerStreams: true}, info.FullMethod)
		if err == nil {
			err = cs.SendMsg(req)
		}
		if err == nil {
			err = cs.CloseSend()
		}
		if err != nil {
			if unreachable(err) {
				return r.Elsewhere(addr, err)
			}
			return err
		}
		if hdr, err := cs.Header(); err == nil && len(hdr) > 0 {
			_ = ss.SendHeader(hdr)
		}
		for first := true; ; first = false {
			m := out.New().Interface()
			if err := cs.RecvMsg(m); err != nil {
				if trl := cs.Trailer(); len(trl) > 0 {
					ss.SetTrailer(trl)
				}
				if errors.Is(err, io.EOF) {
					return nil
				}
				if first && unreachable(err) {
					return r.Elsewhere(addr, err)
				}
				return err
			}
			if err := ss.SendMsg(m); err != nil {
				return err
			}
		}
	}
}

func (r Routing) selects(method string) bool {
	for _, p := range r.Methods {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

// errOrphaned is the error of a call for a table between two owners: its
// owner stopped renewing its lease and no node took it over yet (it will
// be, about a lease's TTL after its owner stopped), or it moved while the
// call was on its way.
var errOrphaned = status.Error(codes.Unavailable, "the table's node stopped; another takes it over: retry")

// elsewhere returns the address of the node that owns the table req
// names, when that is another node and the call was not forwarded
// already; an error for a table between two owners.
func (n *Node) elsewhere(ctx context.Context, req any, held func(string) bool) (string, bool, error) {
	return n.Elsewhere(ctx, TableID(req), held)
}

// Elsewhere returns the address of the node that owns table id, when that
// is another node and the call in ctx was not forwarded already (held, when
// set, reports the tables this node's hosts hold: no lookup for them); an
// error for a table between two owners. For a stream that carries many
// tables (Multiplex), which is never forwarded whole: each of its items is
// asked about alone.
func (n *Node) Elsewhere(ctx context.Context, id string, held func(string) bool) (string, bool, error) {
	if id == "" {
		return "", false, nil
	}
	if held != nil && held(id) {
		return "", false, nil
	}
	if n.adopting(id) {
		// Leased here, not running yet: the host would not know it.
		return "", false, errOrphaned
	}
	forwarded := n.Forwarded(ctx)
	if forwarded && n.Holds(id) {
		return "", false, nil
	}
	l, st := n.lookup(ctx, id)
	switch {
	case st == orphaned, st == leased && l.Node == n.cfg.NodeID && !n.Holds(id):
		// Expired, or this node lost it (it could not renew it in
		// time) and it will expire.
		return "", false, errOrphaned
	case st != leased || l.Node == n.cfg.NodeID || l.Addr == "":
		return "", false, nil
	case forwarded:
		// Sent here by a node that saw an older lease: the table moved
		// on (never forwarded twice); the caller asks again.
		return "", false, errOrphaned
	}
	return l.Addr, true, nil
}

// TableID returns the table_id string field of a request message ("" if
// it has none).
func TableID(req any) string {
	m, ok := req.(proto.Message)
	if !ok {
		return ""
	}
	r := m.ProtoReflect()
	f := r.Descriptor().Fields().ByName("table_id")
	if f == nil || f.Kind() != protoreflect.StringKind || f.IsList() {
		return ""
	}
	return r.Get(f).String()
}

// outgoing is the context of a forwarded call: the incoming metadata but
// the transport's own, and the forwarding mark.
func (n *Node) outgoing(ctx context.Context) context.Context {
	in, _ := metadata.FromIncomingContext(ctx)
	md := metadata.MD{}
	for k, v := range in {
		if strings.HasPrefix(k, ":") || strings.HasPrefix(k, "grpc-") || hopHeaders[k] {
			continue
		}
		md[k] = v
	}
	md.Set(ForwardedKey, n.cfg.NodeID)
	md.Set(ForwardedTokenKey, n.token)
	return metadata.NewOutgoingContext(ctx, md)
}

// hopHeaders are the incoming headers of one connection, not the call.
var hopHeaders = map[string]bool{
	"content-type": true, "user-agent": true, "te": true, "connection": true,
	"content-length": true, "accept-encoding": true, "host": true, "authority": true,
}

// unreachable reports whether a forwarded call failed on the way (the
// owner is down or not reachable), not with the owner's own answer: those
// carry an ErrorInfo.
func unreachable(err error) bool {
	st, ok := status.FromError(err)
	if !ok {
		return true
	}
	return st.Code() == codes.Unavailable && len(st.Details()) == 0
}

// replayed is a server stream whose first request was read already (to
// find its table): the handler reads it again.
type replayed struct {
	grpc.ServerStream
	first proto.Message
}

func (s *replayed) RecvMsg(m any) error {
	if s.first == nil {
		return s.ServerStream.RecvMsg(m)
	}
	pm, ok := m.(proto.Message)
	if !ok {
		return fmt.Errorf("cluster: %T is not a proto message", m)
	}
	proto.Reset(pm)
	proto.Merge(pm, s.first)
	s.first = nil
	return nil
}

// messageTypes returns a method's request and response types, from the
// registry of every linked proto.
var typeCache sync.Map // full method -> [2]protoreflect.MessageType

func messageTypes(method string) (protoreflect.MessageType, protoreflect.MessageType, error) {
	if v, ok := typeCache.Load(method); ok {
		t := v.([2]protoreflect.MessageType)
		return t[0], t[1], nil
	}
	s := strings.TrimPrefix(method, "/")
	i := strings.LastIndexByte(s, '/')
	if i < 0 {
		return nil, nil, fmt.Errorf("cluster: method %q", method)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(s[:i]))
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: method %q: %w", method, err)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, nil, fmt.Errorf("cluster: method %q: not a service", method)
	}
	md := sd.Methods().ByName(protoreflect.Name(s[i+1:]))
	if md == nil {
		return nil, nil, fmt.Errorf("cluster: method %q: no such method", method)
	}
	in, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
	if err != nil {
		return nil, nil, err
	}
	out, err := protoregistry.GlobalTypes.FindMessageByName(md.Output().FullName())
	if err != nil {
		return nil, nil, err
	}
	typeCache.Store(method, [2]protoreflect.MessageType{in, out})
	return in, out, nil
}

// pool holds one client connection per node address.
type pool struct {
	self   string
	creds  credentials.TransportCredentials
	mu     sync.Mutex
	conns  map[string]*grpc.ClientConn
	closed bool
}

// init readies the pool of node self, dialling with peerTLS (nil:
// plaintext, docs/cluster.md).
func (p *pool) init(self string, peerTLS *tls.Config) {
	p.self, p.conns = self, map[string]*grpc.ClientConn{}
	p.creds = insecure.NewCredentials()
	if peerTLS != nil {
		p.creds = credentials.NewTLS(peerTLS.Clone())
	}
}

func (p *pool) conn(addr string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("cluster: node closed")
	}
	if cc := p.conns[addr]; cc != nil {
		return cc, nil
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(p.creds))
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to %s: %w", addr, err)
	}
	p.conns[addr] = cc
	return cc, nil
}

func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, cc := range p.conns {
		_ = cc.Close()
	}
	p.conns = nil
}

// Answer is one node's reply to Ask.
type Answer struct {
	Node  NodeInfo
	Reply any
	Err   error
}

// Ask calls f on every other live node, at once, as a forwarded call
// (the metadata of the incoming call in ctx, and the forwarding mark), and
// returns their answers: what a listing of every node's tables needs.
func (n *Node) Ask(ctx context.Context, f func(ctx context.Context, cc grpc.ClientConnInterface) (any, error)) []Answer {
	var others []NodeInfo
	for _, info := range n.Nodes() {
		if info.ID != n.cfg.NodeID {
			others = append(others, info)
		}
	}
	out := make([]Answer, len(others))
	var wg sync.WaitGroup
	for i, info := range others {
		out[i].Node = info
		cc, err := n.pool.conn(info.Addr)
		if err != nil {
			out[i].Err = err
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].Reply, out[i].Err = f(n.outgoing(ctx), cc)
		}()
	}
	wg.Wait()
	return out
}
