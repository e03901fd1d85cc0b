// Package pipeline turns the bytes of a game's device ports into its event
// stream (docs/events.md): each port's bytes go through the device
// decoder (driver/dgt for a "dgt" port, driver/lineclock for a "lineclock"
// port), board states become rules.Snapshots, clock messages become
// clockd.Readings and, through the clockd.Interpreter, clock events; the
// rules/reconcile state machine turns both into completed moves, anomalies
// and flag verdicts.
//
// One clock per game: the clock is either the DGT 3000 the board relays
// (BWTIME messages on the dgt port) or a separate USB clock on a port of
// its own, declared "#port clock lineclock". When a capture declares a
// lineclock port, the board's BWTIME messages are ignored from then on, so
// a board reporting "no clock attached" raises no anomaly; the lineclock
// port's own session markers do (the lineclock port, whatever its name,
// disconnected is a clock-disconnected anomaly).
//
// The pipeline is fed capture records (internal/journal/capture): the live daemon
// feeds each record as it writes it to the capture, and replay feeds the
// records it reads back, so both produce the same events byte for byte —
// the capture is the journal (docs/ARCHITECTURE.md, key decision 1).
package pipeline
