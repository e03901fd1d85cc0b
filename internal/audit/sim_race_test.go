//go:build race

package audit

// simRace: the race detector slows the simulated rounds tenfold; they run
// as under -short.
const simRace = true
