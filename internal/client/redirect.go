package client

import (
	"context"
	"sync"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// A server that is one node of a cluster forwards the calls for a table
// another node owns; where it cannot, it answers TABLE_ELSEWHERE with the
// owner's address (ErrorInfo metadata "owner_addr"). The connections
// DialConn makes follow such an answer: the call, or the stream with the
// requests sent on it, is made again at the owner, on a connection of its
// own (with the same dial options) that ends with the call. It is rare (a
// cluster forwards), so nothing is pooled.

// MetaOwnerAddr is the ErrorInfo metadata key of the owner's address on
// TABLE_ELSEWHERE.
const MetaOwnerAddr = "owner_addr"

// OwnerAddr returns the owner's address of a TABLE_ELSEWHERE error.
func OwnerAddr(err error) (string, bool) {
	st, ok := status.FromError(err)
	if !ok || err == nil {
		return "", false
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == errorDomain &&
			info.GetReason() == pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE.String() {
			addr := info.GetMetadata()[MetaOwnerAddr]
			return addr, addr != ""
		}
	}
	return "", false
}

// redirects follows TABLE_ELSEWHERE with the options of the first dial.
type redirects struct {
	opts []grpc.DialOption
}

func (r redirects) dial(addr string) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, r.opts...)
}

func (r redirects) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoke grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoke(ctx, method, req, reply, cc, opts...)
	addr, ok := OwnerAddr(err)
	if !ok {
		return err
	}
	owner, derr := r.dial(addr)
	if derr != nil {
		return err
	}
	defer owner.Close()
	return owner.Invoke(ctx, method, req, reply, opts...)
}

func (r redirects) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	cs, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil || method == pb.TableService_Multiplex_FullMethodName {
		// A Multiplex stream is refused item by item, never whole: its
		// Mux follows the owner's address itself (Mux.owner).
		return cs, err
	}
	return &followed{ClientStream: cs, r: r, ctx: ctx, desc: desc, method: method, opts: opts}, nil
}

// followed is a client stream that is opened again at the owner when its
// first answer is TABLE_ELSEWHERE.
type followed struct {
	grpc.ClientStream
	r      redirects
	ctx    context.Context
	desc   *grpc.StreamDesc
	method string
	opts   []grpc.CallOption

	mu       sync.Mutex
	sent     []any // the requests sent, until an answer came
	closed   bool  // CloseSend was called
	answered bool
	owner    *grpc.ClientConn
}

func (s *followed) SendMsg(m any) error {
	s.mu.Lock()
	if !s.answered {
		s.sent = append(s.sent, m)
	}
	s.mu.Unlock()
	return s.ClientStream.SendMsg(m)
}

func (s *followed) CloseSend() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.ClientStream.CloseSend()
}

func (s *followed) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.answered, s.sent = true, nil
		return nil
	}
	if s.answered || s.owner != nil {
		s.end()
		return err
	}
	addr, ok := OwnerAddr(err)
	if !ok {
		return err
	}
	owner, derr := s.r.dial(addr)
	if derr != nil {
		return err
	}
	cs, oerr := owner.NewStream(s.ctx, s.desc, s.method, s.opts...)
	for _, q := range s.sent {
		if oerr == nil {
			oerr = cs.SendMsg(q)
		}
	}
	if oerr == nil && s.closed {
		oerr = cs.CloseSend()
	}
	if oerr != nil {
		owner.Close()
		return oerr
	}
	s.ClientStream, s.owner = cs, owner
	context.AfterFunc(s.ctx, func() { owner.Close() })
	err = cs.RecvMsg(m)
	if err == nil {
		s.answered, s.sent = true, nil
		return nil
	}
	s.end()
	return err
}

// end closes the owner's connection once the stream there ended; the
// caller holds mu.
func (s *followed) end() {
	if s.owner != nil {
		s.owner.Close()
	}
}
