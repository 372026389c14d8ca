// Package cluster makes an authority one node of several that share their
// tables (docs/cluster.md): every table has one owning node at a time,
// the one that holds its lease in a NATS JetStream key-value bucket; a
// node that dies stops renewing its leases, and the other nodes take its
// tables over from the shared store. Calls that reach a node that does not
// own their table are forwarded to the owner (forward.go).
//
// The buckets:
//
//	owners  table id -> Lease (JSON): created with Create (only if absent),
//	        renewed with Update at the last revision every TTL/3; the
//	        bucket's MaxAge is the TTL, so a lease not renewed expires and
//	        leaves a marker that every node's watch sees.
//	nodes   node id -> NodeInfo (JSON), the node registry, renewed the
//	        same way: which nodes are alive and where they listen.
//
// Leases and the registry are JetStream's; nothing here agrees on anything
// by itself. The store fences a table a node takes over (host.Claimer), so
// that a node that lost a lease but does not know it yet cannot append.
package cluster

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/host"
)

// The buckets' names.
const (
	OwnersBucket = "owners"
	NodesBucket  = "nodes"
	SharedBucket = "cluster"
)

// openRetry is how long Open tries to create the buckets.
const openRetry = 30 * time.Second

// DefaultTTL is a lease's time to live when Config.TTL is zero.
const DefaultTTL = 5 * time.Second

// Config configures a Node.
type Config struct {
	NodeID string // unique in the cluster; a KV key (letters, digits, - and _)
	Addr   string // the address other nodes and clients reach this node at (host:port)
	// TTL is how long a lease lives without renewal: a dead node's
	// tables are taken over about TTL after it died. Default DefaultTTL.
	TTL time.Duration
	// Replicas is how many JetStream servers keep the buckets (1 or 3,
	// at most the cluster's size). Default 1.
	Replicas int
	Log      *zap.Logger
	// PeerTLS, when set, is how this node dials the others for the calls
	// it forwards (their listeners serve TLS: --tls-cert). It needs the
	// roots that verify the nodes' certificates for their advertised
	// addresses (nil RootCAs: the system's). Nil: plaintext, for nodes on
	// a private network.
	PeerTLS *tls.Config
}

// Lease is an owners entry: who owns a table, and how to reach it.
type Lease struct {
	Node    string `json:"node"`
	Addr    string `json:"addr"`
	RuleSet string `json:"rule_set"`
	// Epoch is the revision at which this node took the lease: it grows
	// with every change of owner.
	Epoch uint64 `json:"epoch"`
}

// NodeInfo is a registry entry.
type NodeInfo struct {
	ID   string `json:"id"`
	Addr string `json:"addr"`
}

// Adopter is a host that takes tables over (host.Host.Adopt) and gives
// them up (host.Host.Release): one per rule set.
type Adopter interface {
	Adopt(ctx context.Context, id string) error
	Release(id string, why error) bool
}

// ErrLeaseLost is why a node gives a table up: another node holds its
// lease, or this node could not renew it in time.
var ErrLeaseLost = errors.New("cluster: the table's lease was lost")

// held is a lease this node holds.
type held struct {
	rev     uint64 // the revision of our last write
	value   []byte
	renewed time.Time // when our last write was acknowledged
	ruleSet string
}

// seen is what the watch last saw of a lease.
type seen struct {
	lease Lease
	at    time.Time // local time of the put
	gone  bool      // expired (a MaxAge marker) or deleted
	none  bool      // the bucket said it holds no lease (at: when)
}

// Node is this process's membership of the cluster: its leases, its view
// of everyone's, and the takeover of a dead node's tables.
type Node struct {
	cfg    Config
	log    *zap.Logger
	owners jetstream.KeyValue
	nodes  jetstream.KeyValue
	pool   pool
	token  string // proves a call was forwarded by a node (forwardToken)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	mine     map[string]*held
	leases   map[string]*seen
	live     map[string]nodeSeen
	adopters map[string]Adopter
	started  bool
	leaving  bool            // handed over: takes no table any more
	trying   map[string]bool // takeovers in progress
}

type nodeSeen struct {
	info NodeInfo
	at   time.Time
}

// Open joins the cluster through js: it creates the buckets if need be,
// registers the node, and starts renewing its leases and watching
// everyone's. Tables are taken over only once Start is called (when the
// hosts are there to adopt them). Close leaves.
func Open(ctx context.Context, js jetstream.JetStream, cfg Config) (*Node, error) {
	if cfg.NodeID == "" || cfg.Addr == "" {
		return nil, errors.New("cluster: a node needs an id and an address")
	}
	if !validKey(cfg.NodeID) {
		return nil, fmt.Errorf("cluster: node id %q: letters, digits, - and _ only", cfg.NodeID)
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	bucket := func(name, what string, leases bool) (jetstream.KeyValue, error) {
		kcfg := jetstream.KeyValueConfig{
			Bucket: name, Description: what, History: 1,
			Replicas: cfg.Replicas, Storage: jetstream.FileStorage,
		}
		if leases {
			kcfg.TTL = cfg.TTL
			// A marker when a key expires: every watch hears of it.
			kcfg.LimitMarkerTTL = max(cfg.TTL, time.Second) // the least JetStream takes
		}
		// A cluster that is starting has no JetStream leader for a few
		// seconds, and nodes that start together create the bucket at
		// once: tried again for a while.
		deadline := time.Now().Add(openRetry)
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
			actx, cancel := context.WithTimeout(ctx, 5*time.Second)
			kv, err := js.CreateOrUpdateKeyValue(actx, kcfg)
			cancel()
			if err == nil {
				return kv, nil
			}
			if ctx.Err() != nil || time.Now().After(deadline) {
				return nil, fmt.Errorf("cluster: bucket %s: %w", name, err)
			}
			cfg.Log.Info("cluster: bucket not ready, trying again", zap.String("bucket", name), zap.Error(err))
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
	}
	owners, err := bucket(OwnersBucket, "table id -> the node that owns the table (a lease)", true)
	if err != nil {
		return nil, err
	}
	nodes, err := bucket(NodesBucket, "node id -> its address (a lease)", true)
	if err != nil {
		return nil, err
	}
	shared, err := bucket(SharedBucket, "what every node of the cluster shares", false)
	if err != nil {
		return nil, err
	}
	token, err := forwardToken(ctx, shared)
	if err != nil {
		return nil, err
	}
	nctx, cancel := context.WithCancel(context.Background())
	n := &Node{
		cfg: cfg, log: cfg.Log.With(zap.String("node", cfg.NodeID)), owners: owners, nodes: nodes, token: token,
		ctx: nctx, cancel: cancel,
		mine: map[string]*held{}, leases: map[string]*seen{}, live: map[string]nodeSeen{},
		adopters: map[string]Adopter{}, trying: map[string]bool{},
	}
	n.pool.init(cfg.NodeID, cfg.PeerTLS)
	if err := n.register(ctx); err != nil {
		cancel()
		return nil, err
	}
	ow, err := owners.WatchAll(nctx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("cluster: watch owners: %w", err)
	}
	nw, err := nodes.WatchAll(nctx)
	if err != nil {
		cancel()
		_ = ow.Stop()
		return nil, fmt.Errorf("cluster: watch nodes: %w", err)
	}
	n.loop(func() { n.follow(owners, ow, n.ownerChanged) })
	n.loop(func() { n.follow(nodes, nw, n.nodeChanged) })
	n.loop(n.renewLoop)
	return n, nil
}

// forwardKey is the shared bucket's key of the cluster's forwarding key:
// random, made by the first node that finds none.
const forwardKey = "forward-key"

// forwardToken is what a forwarded call carries to prove that a node of
// this cluster sent it, so that the node receiving it may skip the limits
// the first node applied: derived from a random key every node reads from
// JetStream, whose access is what makes a process a node. (Between nodes
// calls are plaintext unless the nodes serve TLS (Config.PeerTLS),
// docs/cluster.md: the token is as private as that network.)
func forwardToken(ctx context.Context, kv jetstream.KeyValue) (string, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("cluster: forwarding key: %w", err)
	}
	if _, err := kv.Create(ctx, forwardKey, key); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		return "", fmt.Errorf("cluster: forwarding key: %w", err)
	}
	e, err := kv.Get(ctx, forwardKey)
	if err != nil {
		return "", fmt.Errorf("cluster: forwarding key: %w", err)
	}
	if len(e.Value()) < 16 {
		return "", fmt.Errorf("cluster: forwarding key: %d bytes in the bucket %s", len(e.Value()), SharedBucket)
	}
	mac := hmac.New(sha256.New, e.Value())
	mac.Write([]byte("authority forwarded call"))
	return hex.EncodeToString(mac.Sum(nil)), nil
}

func (n *Node) loop(f func()) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		f()
	}()
}

// ID is the node's id.
func (n *Node) ID() string { return n.cfg.NodeID }

// Addr is the node's advertised address.
func (n *Node) Addr() string { return n.cfg.Addr }

// Register names the host that adopts the tables of a rule set (by the
// name host.Owner leases carry); call it before Start.
func (n *Node) Register(ruleSet string, a Adopter) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.adopters[ruleSet] = a
}

// Start lets the node take over the tables whose leases expire.
func (n *Node) Start() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.started {
		return
	}
	n.started = true
	n.loop(n.sweepLoop)
}

// Handover gives the node's tables to the others at once, for a graceful
// stop: it leaves the registry, so that no node ranks it first for a
// table any more, takes no table over from now on, and purges every lease
// it holds at the revision it last wrote. A purge is what the others see
// when a lease expires, so they take the tables over as after a crash,
// without waiting a TTL. Call it once the tables have stopped here (their
// hosts closed: nothing more is appended), then Close. The leases it could
// not purge (the store did not answer) expire as after a crash; the error
// says how many.
func (n *Node) Handover(ctx context.Context) error {
	n.mu.Lock()
	n.leaving = true
	revs := make(map[string]uint64, len(n.mine))
	for id, h := range n.mine {
		revs[id] = h.rev
	}
	n.mine = map[string]*held{}
	n.mu.Unlock()
	var errs []error
	if err := n.nodes.Delete(ctx, n.cfg.NodeID); err != nil {
		errs = append(errs, fmt.Errorf("leave the registry: %w", err))
	}
	failed := 0
	for id, rev := range revs {
		if err := n.purge(ctx, id, rev); err != nil {
			failed++
			n.log.Debug("lease not handed over (it expires)", zap.String("table", id), zap.Error(err))
		}
	}
	if failed > 0 {
		errs = append(errs, fmt.Errorf("%d of %d leases not handed over: they expire", failed, len(revs)))
	}
	n.log.Info("tables handed over", zap.Int("tables", len(revs)-failed))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("cluster: handover of node %s: %w", n.cfg.NodeID, err)
	}
	return nil
}

// purge ends table id's lease if it is still this node's: at rev, or,
// where a renewal in flight wrote it again, at the revision it has now.
func (n *Node) purge(ctx context.Context, id string, rev uint64) error {
	err := n.owners.Purge(ctx, id, jetstream.LastRevision(rev))
	if err == nil {
		return nil
	}
	e, gerr := n.owners.Get(ctx, id)
	if gerr != nil {
		return errors.Join(err, gerr)
	}
	var l Lease
	if json.Unmarshal(e.Value(), &l) != nil || l.Node != n.cfg.NodeID || e.Revision() == rev {
		return err
	}
	return n.owners.Purge(ctx, id, jetstream.LastRevision(e.Revision()))
}

// Close stops renewing and watching, and closes the connections to the
// other nodes. The leases it still holds are not given up: they expire,
// and the other nodes take the tables over (Handover first gives them up
// at once).
func (n *Node) Close() {
	n.cancel()
	n.wg.Wait()
	n.pool.close()
}

// Own registers a rule set's Adopter and returns the host.Owner of its
// host (ruleset.Hosting.Owner).
func (n *Node) Own(ruleSet string, a Adopter) host.Owner {
	n.Register(ruleSet, a)
	return n.Owner(ruleSet)
}

// Owner is the host.Owner of a rule set's host on this node.
func (n *Node) Owner(ruleSet string) host.Owner { return owner{n: n, ruleSet: ruleSet} }

type owner struct {
	n       *Node
	ruleSet string
}

func (o owner) Acquire(ctx context.Context, id string) (bool, error) {
	return o.n.acquire(ctx, id, o.ruleSet)
}
func (o owner) Drop(id string) { o.n.drop(id) }

// validKey reports whether s may be a KV key here: letters, digits, - and
// _ (a table id is a UUID).
func validKey(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// acquire creates table id's lease for this node; false if another node
// holds it.
func (n *Node) acquire(ctx context.Context, id, ruleSet string) (bool, error) {
	n.mu.Lock()
	leaving := n.leaving
	n.mu.Unlock()
	if !validKey(id) || leaving {
		return false, nil
	}
	l := Lease{Node: n.cfg.NodeID, Addr: n.cfg.Addr, RuleSet: ruleSet}
	v, _ := json.Marshal(l)
	rev, err := n.owners.Create(ctx, id, v)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cluster: lease %s: %w", id, err)
	}
	// The epoch is the revision it was taken at: written with the next
	// renewal, when the value is written again anyway.
	l.Epoch = rev
	v, _ = json.Marshal(l)
	now := time.Now()
	n.mu.Lock()
	n.mine[id] = &held{rev: rev, value: v, renewed: now, ruleSet: ruleSet}
	n.leases[id] = &seen{lease: l, at: now}
	n.mu.Unlock()
	n.log.Debug("lease taken", zap.String("table", id), zap.Uint64("epoch", rev))
	return true, nil
}

// drop gives a lease up: deleted at our revision (if another node took it
// meanwhile, the delete fails and the lease stays theirs).
func (n *Node) drop(id string) {
	n.mu.Lock()
	h := n.mine[id]
	delete(n.mine, id)
	n.mu.Unlock()
	if h == nil {
		return
	}
	ctx, cancel := context.WithTimeout(n.ctx, n.cfg.TTL)
	defer cancel()
	if err := n.owners.Delete(ctx, id, jetstream.LastRevision(h.rev)); err != nil && n.ctx.Err() == nil {
		n.log.Debug("lease not deleted (it expires)", zap.String("table", id), zap.Error(err))
	}
}

// Holds reports whether this node holds table id's lease.
func (n *Node) Holds(id string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.mine[id] != nil
}

// Owned returns how many leases this node holds.
func (n *Node) Owned() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.mine)
}

// Lookup returns table id's lease as this node knows it: from its watch,
// else read from the bucket. ok is false when no node holds it.
func (n *Node) Lookup(ctx context.Context, id string) (l Lease, ok bool) {
	l, st := n.lookup(ctx, id)
	return l, st == leased
}

// The states of a table's lease.
const (
	unleased = iota // none: a table of no node (finished, or unknown)
	leased          // a node holds it
	orphaned        // it expired and no node took the table over yet
)

func (n *Node) lookup(ctx context.Context, id string) (Lease, int) {
	if !validKey(id) {
		return Lease{}, unleased
	}
	n.mu.Lock()
	s := n.leases[id]
	var l Lease
	known := s != nil && !s.none
	recent := s != nil && !s.gone && time.Since(s.at) < n.cfg.TTL
	if recent {
		l = s.lease
	}
	none := recent && s.none
	// A table seen leased long ago whose lease is gone and that nobody
	// took over needs no owner (its game ended while the watch was
	// silent): served where the call lands, not refused for ever.
	longGone := s != nil && !s.none && time.Since(s.at) > 3*n.cfg.TTL
	n.mu.Unlock()
	switch {
	case none:
		return Lease{}, unleased // asked lately: a put since would be in the map
	case recent:
		return l, leased
	}
	// Not seen yet (a table created a moment ago on another node), or
	// not renewed lately: ask the bucket, briefly.
	gctx, cancel := context.WithTimeout(ctx, n.cfg.TTL/4)
	e, err := n.owners.Get(gctx, id)
	cancel()
	switch {
	case err == nil && json.Unmarshal(e.Value(), &l) == nil:
		return l, leased
	case err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) && !errors.Is(err, jetstream.ErrKeyDeleted):
		if known {
			// No answer about a table seen leased: nobody can say
			// where it is; not "nowhere".
			return Lease{}, orphaned
		}
		return Lease{}, unleased
	case known && !longGone:
		// Its owner stopped renewing it: the table waits for another.
		return Lease{}, orphaned
	}
	// No lease: remembered for a TTL, so that the calls for a finished
	// table do not ask the bucket each time.
	n.mu.Lock()
	if n.leases[id] == nil {
		n.leases[id] = &seen{none: true, at: time.Now()}
	}
	n.mu.Unlock()
	return Lease{}, unleased
}

// Nodes returns the live nodes, this one included, by id.
func (n *Node) Nodes() []NodeInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]NodeInfo, 0, len(n.live))
	for _, s := range n.live {
		if time.Since(s.at) < n.cfg.TTL {
			out = append(out, s.info)
		}
	}
	slices.SortFunc(out, func(a, b NodeInfo) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// register writes the node's registry entry.
func (n *Node) register(ctx context.Context) error {
	v, _ := json.Marshal(NodeInfo{ID: n.cfg.NodeID, Addr: n.cfg.Addr})
	if _, err := n.nodes.Put(ctx, n.cfg.NodeID, v); err != nil {
		return fmt.Errorf("cluster: register node %s: %w", n.cfg.NodeID, err)
	}
	return nil
}

// renewLoop renews the registry entry and every lease every TTL/3.
func (n *Node) renewLoop() {
	tick := time.NewTicker(n.cfg.TTL / 3)
	defer tick.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-tick.C:
		}
		n.mu.Lock()
		leaving := n.leaving
		n.mu.Unlock()
		if leaving {
			return // handed over: nothing left to renew
		}
		ctx, cancel := context.WithTimeout(n.ctx, n.cfg.TTL/3)
		if err := n.register(ctx); err != nil && n.ctx.Err() == nil {
			n.log.Warn("registry entry not renewed", zap.Error(err))
		}
		cancel()
		n.renew()
	}
}

// renew renews every lease this node holds; a lease it cannot renew is
// lost (another node holds it, or it may have expired) and its table is
// released.
func (n *Node) renew() {
	n.mu.Lock()
	ids := make([]string, 0, len(n.mine))
	for id := range n.mine {
		ids = append(ids, id)
	}
	n.mu.Unlock()
	for _, id := range ids {
		n.mu.Lock()
		h := n.mine[id]
		n.mu.Unlock()
		if h == nil {
			continue
		}
		// Each its own time: one slow answer must not cost the others.
		ctx, cancel := context.WithTimeout(n.ctx, n.cfg.TTL/3)
		rev, err := n.owners.Update(ctx, id, h.value, h.rev)
		cancel()
		now := time.Now()
		n.mu.Lock()
		if n.mine[id] != h {
			n.mu.Unlock()
			continue // dropped meanwhile
		}
		switch {
		case err == nil:
			h.rev, h.renewed = rev, now
			n.mu.Unlock()
			continue
		case n.ctx.Err() != nil:
			n.mu.Unlock()
			return
		case !errors.Is(err, jetstream.ErrKeyExists) && !errors.Is(err, jetstream.ErrKeyNotFound) &&
			now.Sub(h.renewed) < n.cfg.TTL*2/3:
			// The store did not answer: the lease is still ours for a
			// while; the next renewal tries again.
			n.mu.Unlock()
			n.log.Warn("lease not renewed", zap.String("table", id), zap.Error(err))
			continue
		}
		delete(n.mine, id)
		n.mu.Unlock()
		n.lose(id, h.ruleSet, err)
	}
}

// lose releases a table whose lease this node no longer holds.
func (n *Node) lose(id, ruleSet string, cause error) {
	n.mu.Lock()
	a := n.adopters[ruleSet]
	n.mu.Unlock()
	n.log.Warn("lease lost: table released", zap.String("table", id), zap.Error(cause))
	if a != nil {
		a.Release(id, fmt.Errorf("%w: %v", ErrLeaseLost, cause))
	}
}

// follow hands every change of a bucket to f. A watch that stays silent
// for a TTL is made again: every live node renews something every TTL/3,
// so silence means the watch stalled (its JetStream server went away).
// The keys deleted meanwhile are not replayed: a lease seen last long ago
// is checked against the bucket (lookup) and by the sweep.
func (n *Node) follow(kv jetstream.KeyValue, w jetstream.KeyWatcher, f func(jetstream.KeyValueEntry)) {
	for {
		quiet := time.NewTimer(n.cfg.TTL)
	watch:
		for {
			select {
			case <-n.ctx.Done():
				quiet.Stop()
				_ = w.Stop()
				return
			case e, ok := <-w.Updates():
				if !ok {
					break watch
				}
				if e != nil { // nil: the initial values are all in
					f(e)
				}
				quiet.Reset(n.cfg.TTL)
			case <-quiet.C:
				break watch
			}
		}
		quiet.Stop()
		_ = w.Stop()
		for {
			nw, err := kv.WatchAll(n.ctx)
			if err == nil {
				w = nw
				break
			}
			select {
			case <-n.ctx.Done():
				return
			case <-time.After(n.cfg.TTL / 4):
			}
		}
	}
}

// ownerChanged follows a lease: who owns what, and which expire.
func (n *Node) ownerChanged(e jetstream.KeyValueEntry) {
	id, now := e.Key(), time.Now()
	switch e.Operation() {
	case jetstream.KeyValuePut:
		var l Lease
		if json.Unmarshal(e.Value(), &l) != nil {
			return
		}
		n.mu.Lock()
		n.leases[id] = &seen{lease: l, at: now}
		h := n.mine[id]
		lost := h != nil && l.Node != n.cfg.NodeID
		if lost {
			delete(n.mine, id)
		}
		n.mu.Unlock()
		if lost {
			n.lose(id, h.ruleSet, fmt.Errorf("node %s holds it", l.Node))
		}
	case jetstream.KeyValuePurge:
		// Expired (a MaxAge marker): its table needs a new owner,
		// unless its owner gave it up (a delete).
		n.mu.Lock()
		s := n.leases[id]
		if s == nil {
			s = &seen{}
			n.leases[id] = s
		}
		s.gone, s.at = true, now
		rs, was := s.lease.RuleSet, s.lease.Node
		n.mu.Unlock()
		n.takeLater(id, rs, was)
	case jetstream.KeyValueDelete:
		n.mu.Lock()
		delete(n.leases, id)
		n.mu.Unlock()
	}
}

// nodeChanged follows the registry.
func (n *Node) nodeChanged(e jetstream.KeyValueEntry) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if e.Operation() == jetstream.KeyValuePut {
		var info NodeInfo
		if json.Unmarshal(e.Value(), &info) == nil {
			n.live[e.Key()] = nodeSeen{info: info, at: time.Now()}
		}
	} else {
		delete(n.live, e.Key())
	}
}

// sweepLoop looks every TTL/8 for leases that were not renewed for the
// TTL (their expiry marker may have been missed) and for takeovers a
// preferred node did not make.
func (n *Node) sweepLoop() {
	tick := time.NewTicker(n.cfg.TTL / 8)
	defer tick.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		type cand struct {
			id, ruleSet string
			late        bool
		}
		var cs []cand
		n.mu.Lock()
		for id, s := range n.leases {
			stale := now.Sub(s.at)
			if s.none {
				if stale > n.cfg.TTL {
					delete(n.leases, id)
				}
				continue
			}
			if n.mine[id] != nil || s.lease.RuleSet == "" || stale < n.cfg.TTL+n.cfg.TTL/8 {
				continue
			}
			// The preferred node first; the others once it had half a
			// TTL to do it.
			late := stale > n.cfg.TTL*3/2
			cs = append(cs, cand{id, s.lease.RuleSet, late})
		}
		n.mu.Unlock()
		for _, c := range cs {
			if c.late || n.preferred(c.id, n.ownerOf(c.id)) {
				n.take(c.id, c.ruleSet, c.late)
			}
		}
	}
}

// adopting reports whether this node is taking table id over.
func (n *Node) adopting(id string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.trying[id]
}

// ownerOf is the node that held table id's lease as last seen.
func (n *Node) ownerOf(id string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if s := n.leases[id]; s != nil {
		return s.lease.Node
	}
	return ""
}

// takeLater tries to take over a table whose lease expired: at once if
// this node is the table's preferred one among the live nodes, else after
// half a TTL, if it is still without an owner (the preferred node may be
// dead too). The preference spreads a dead node's tables over the others.
func (n *Node) takeLater(id, ruleSet, was string) {
	if ruleSet == "" {
		return
	}
	if n.preferred(id, was) {
		n.loop(func() { n.take(id, ruleSet, false) })
		return
	}
	n.loop(func() {
		select {
		case <-n.ctx.Done():
		case <-time.After(n.cfg.TTL / 2):
			n.take(id, ruleSet, true)
		}
	})
}

// preferred reports whether this node ranks first for table id among the
// live nodes but was, the owner that let the lease expire (rendezvous
// hashing: a table's ranking does not depend on the other tables, and a
// node that dies moves only its own tables).
func (n *Node) preferred(id, was string) bool {
	best, bestScore := "", uint64(0)
	for _, info := range n.Nodes() {
		if info.ID == was {
			continue
		}
		h := fnv.New64a()
		_, _ = h.Write([]byte(info.ID))
		_, _ = h.Write([]byte{0})
		_, _ = h.Write([]byte(id))
		if s := mix(h.Sum64()); best == "" || s > bestScore {
			best, bestScore = info.ID, s
		}
	}
	return best == "" || best == n.cfg.NodeID
}

// mix is SplitMix64's finalizer: FNV's hashes of keys that differ in one
// byte are ordered alike, which would rank one node first for every table.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// take creates table id's lease and adopts the table; late says the
// preferred node had its chance.
func (n *Node) take(id, ruleSet string, late bool) {
	n.mu.Lock()
	a := n.adopters[ruleSet]
	if !n.started || n.leaving || a == nil || n.mine[id] != nil || n.trying[id] || n.ctx.Err() != nil {
		n.mu.Unlock()
		return
	}
	if s := n.leases[id]; late && s != nil && !s.gone && time.Since(s.at) < n.cfg.TTL {
		n.mu.Unlock()
		return // someone took it meanwhile
	}
	n.trying[id] = true
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.trying, id)
		n.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(n.ctx, 4*n.cfg.TTL)
	defer cancel()
	won, err := n.acquire(ctx, id, ruleSet)
	if err != nil || !won {
		return
	}
	start := time.Now()
	err = a.Adopt(ctx, id)
	switch {
	case err == nil:
		n.log.Info("table taken over", zap.String("table", id), zap.String("rule_set", ruleSet),
			zap.Duration("took", time.Since(start)))
	case errors.Is(err, host.ErrGameOver), errors.Is(err, host.ErrNotFound), errors.Is(err, host.ErrCorruptLog):
		// Nothing to run: no owner needed, and none to wait for.
		n.drop(id)
		n.mu.Lock()
		delete(n.leases, id)
		n.mu.Unlock()
	default:
		// Left to expire, so that another node (or this one) tries again.
		n.mu.Lock()
		delete(n.mine, id)
		n.mu.Unlock()
		n.log.Warn("table not taken over", zap.String("table", id), zap.Error(err))
	}
}
