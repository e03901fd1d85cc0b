//go:build !linux

package unwinnable

import "time"

// threadCPU is not measured here: the CPU-time metrics read zero.
func threadCPU() time.Duration { return 0 }
