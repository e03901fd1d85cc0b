// Package pipeline turns the bytes of a game's device ports into its event
// stream (shared/spec/events.md): each port's bytes go through the device
// decoder (driver/dgt), board states become rules.Snapshots, clock messages
// become clockd.Readings and, through the clockd.Interpreter, clock events;
// the rules/reconcile state machine turns both into completed moves,
// anomalies and flag verdicts.
//
// The pipeline is fed capture records (internal/capture): the live daemon
// feeds each record as it writes it to the capture, and replay feeds the
// records it reads back, so both produce the same events byte for byte —
// the capture is the journal (ARCHITECTURE.md, key decision 1).
package pipeline
