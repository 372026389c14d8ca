package host

import "errors"

// ErrFenced is the error of an append to a table whose log another node
// has claimed since this one last wrote or read it (a replicated store's
// fencing): the append stored nothing, and the table must be given up or
// claimed again, never played on from memory. The host refuses the
// request (ErrUnavailable) as for any append that fails.
var ErrFenced = errors.New("host: the table's log was claimed by another node")
