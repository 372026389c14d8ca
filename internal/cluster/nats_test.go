package cluster_test

import "github.com/mahjong-authority/authority/internal/natstest"

// The tests' JetStream: the leases need JetStream, not a cluster of it.
var (
	startNATS = natstest.Start
	jetStream = natstest.Connect
)
