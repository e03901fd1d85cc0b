//go:build race

package rules

// raceEnabled trims the heaviest property test under the race detector,
// which slows this CPU-bound, single-goroutine code about tenfold.
const raceEnabled = true
