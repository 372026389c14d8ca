package client

import (
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// muxAct is an action sent on a Multiplex stream: the MultiplexRequest
// {act: {call, request}} that muxCodec writes directly. Package proto
// would take the three envelopes built for it (three allocations) and
// walk them twice (size, then marshal) through its reflective coders, a
// tenth of a load generator's sending; only the Action inside, which
// differs by rule set, is left to proto here.
type muxAct struct {
	call uint64
	req  *pb.ActRequest
}

// Field numbers of the envelopes (table_service.proto).
const (
	fieldRequestAct   = 3 // MultiplexRequest.act
	fieldActCall      = 1 // MultiplexAct.call
	fieldActRequest   = 2 // MultiplexAct.request
	fieldReqTableID   = 1 // ActRequest.table_id
	fieldReqSeatToken = 2
	fieldReqLastSeq   = 3
	fieldReqRequestID = 4
	fieldReqAction    = 5
)

// marshal encodes a as proto.Marshal encodes its MultiplexRequest: the
// same bytes (TestMuxActMarshal).
func (a *muxAct) marshal() ([]byte, error) {
	r := a.req
	action := 0
	if r.GetAction() != nil {
		action = proto.Size(r.GetAction())
	}
	req := stringField(fieldReqTableID, r.GetTableId()) + stringField(fieldReqSeatToken, r.GetSeatToken()) +
		stringField(fieldReqRequestID, r.GetRequestId())
	if r.GetLastSeq() != 0 {
		req += protowire.SizeTag(fieldReqLastSeq) + protowire.SizeVarint(r.GetLastSeq())
	}
	if r.GetAction() != nil {
		req += protowire.SizeTag(fieldReqAction) + protowire.SizeBytes(action)
	}
	act := 0
	if a.call != 0 {
		act += protowire.SizeTag(fieldActCall) + protowire.SizeVarint(a.call)
	}
	if r != nil {
		act += protowire.SizeTag(fieldActRequest) + protowire.SizeBytes(req)
	}
	b := make([]byte, 0, protowire.SizeTag(fieldRequestAct)+protowire.SizeBytes(act))
	b = protowire.AppendTag(b, fieldRequestAct, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(act))
	if a.call != 0 {
		b = protowire.AppendTag(b, fieldActCall, protowire.VarintType)
		b = protowire.AppendVarint(b, a.call)
	}
	if r == nil {
		return b, nil
	}
	b = protowire.AppendTag(b, fieldActRequest, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(req))
	b = appendString(b, fieldReqTableID, r.GetTableId())
	b = appendString(b, fieldReqSeatToken, r.GetSeatToken())
	if r.GetLastSeq() != 0 {
		b = protowire.AppendTag(b, fieldReqLastSeq, protowire.VarintType)
		b = protowire.AppendVarint(b, r.GetLastSeq())
	}
	b = appendString(b, fieldReqRequestID, r.GetRequestId())
	if r.GetAction() != nil {
		b = protowire.AppendTag(b, fieldReqAction, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(action))
		// The size just taken is the Action's cached size.
		return proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(b, r.GetAction())
	}
	return b, nil
}

// stringField is the size of a proto3 string field (none when empty).
func stringField(num protowire.Number, s string) int {
	if s == "" {
		return 0
	}
	return protowire.SizeTag(num) + protowire.SizeBytes(len(s))
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// marshalMuxAct is muxCodec's Marshal of a muxAct.
func marshalMuxAct(a *muxAct) (mem.BufferSlice, error) {
	b, err := a.marshal()
	if err != nil {
		return nil, err
	}
	return mem.BufferSlice{mem.SliceBuffer(b)}, nil
}
