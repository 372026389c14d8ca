package feed

import (
	"sync"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// memoryLog keeps the events in memory: cursor n is events[n-1].
type memoryLog struct {
	mu     sync.Mutex
	events []*pb.TableEvent
	seen   map[string]uint64
	hooks  map[string]uint64 // webhook URL -> cursor delivered
}

func (m *memoryLog) Append(e *pb.TableEvent) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := Key(e)
	if c, ok := m.seen[key]; ok {
		e.Cursor = c
		return false, nil
	}
	e.Cursor = uint64(len(m.events)) + 1
	m.events = append(m.events, proto.Clone(e).(*pb.TableEvent))
	m.seen[key] = e.Cursor
	return true, nil
}

func (m *memoryLog) Last() (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return uint64(len(m.events)), nil
}

func (m *memoryLog) Read(after uint64, max int) ([]*pb.TableEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if after >= uint64(len(m.events)) {
		return nil, nil
	}
	end := min(uint64(len(m.events)), after+uint64(max))
	return m.events[after:end:end], nil
}

func (m *memoryLog) Delivered(url string) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hooks[url], nil
}

func (m *memoryLog) SetDelivered(url string, c uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hooks == nil {
		m.hooks = map[string]uint64{}
	}
	m.hooks[url] = c
	return nil
}

func (m *memoryLog) Close() error { return nil }
