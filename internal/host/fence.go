package host

import "errors"

// ErrFenced is the error of an append to a table's log that another node
// claimed since this one last wrote or read it (a shared store's Claim):
// this node lost the table and may not change it any more.
var ErrFenced = errors.New("host: the table's log was claimed by another node")
