//go:build !unix

package loadtest

import "time"

// cpuTime is not measured here (0): the load figures report no CPU time.
func cpuTime() time.Duration { return 0 }
