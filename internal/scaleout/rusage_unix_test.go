//go:build unix

package scaleout

import (
	"syscall"
	"time"
)

// rusage is the process's CPU time so far and its peak resident set.
func rusage() (cpu time.Duration, maxRSS int64) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	rss := ru.Maxrss * 1024 // kilobytes on Linux
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), rss
}
