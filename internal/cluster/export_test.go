package cluster

// TokenOf is n's forwarding token, for the tests.
func TokenOf(n *Node) string { return n.token }
