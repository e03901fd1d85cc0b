// Package faults is arbiterd's fault-injection suite. Its tests play real
// games through the real serial layer — the DGT board and clock emulator on
// the device end of a pseudo-terminal, arbiterd's live path (internal/boards/live:
// go.bug.st/serial, the DGT session, the capture journal, the pipeline) on
// the host end — and break things at moments drawn from a seeded random
// generator: bursts of garbage on the line, lost field updates, lost clock
// frames, the board unplugged and plugged back, the clock's cable pulled,
// the capture's disk filling up.
//
// Each trial is judged against an undisturbed run of the same game: the
// completed-move counts (FIDE Law 6.2.1) and the outcome (the end of the game
// or the flag verdict, 6.3.1, 6.9) must be the same, or the event stream must
// say which moves it could not verify — an anomaly or a disconnection event
// for the side whose count differs. A difference nobody reported is a
// failure, and the trial's seed is printed so it can be replayed.
//
// go test runs a reduced number of trials per fault (ARBITERD_TRIALS, default
// 10; -short runs 3). The full suite is
//
//	ARBITERD_TRIALS=100 go test -run TestFaults -timeout 2h ./internal/testkit/faults/
//
// The package has no non-test code: it is a suite, not a library.
package faults
