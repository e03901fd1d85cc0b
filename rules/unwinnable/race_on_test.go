//go:build race

package unwinnable

// raceEnabled trims the heaviest soundness test under the race detector,
// which slows this single-goroutine search about tenfold.
const raceEnabled = true
