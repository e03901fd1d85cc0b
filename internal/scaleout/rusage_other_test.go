//go:build !unix

package scaleout

import "time"

// rusage is not measured here.
func rusage() (time.Duration, int64) { return 0, 0 }
