// Package loadtest runs many emulated boards against arbiterd's live path in
// one process and measures what that costs: CPU, memory per board, and the
// latency from a clock press reaching arbiterd to its completed move (FIDE
// Law 6.2.1: a move is completed when the player presses the clock).
//
// Each board is a DGT board and clock emulator (internal/device/emulator) talking
// over an in-process serial line (buffered both ways, like a UART) to the
// host side the daemon runs on a serial port: live.Run, given the line
// through its Open hook — the dgt.Session (start-up, keep-alive polls), the
// journal writing every byte into the board's capture file first and then
// feeding exactly those records to the board's pipeline, the sync before a
// completed move is told — with its events published into one shared hub.
// Only the serial port itself is replaced; the decoders, the journal, the
// reconciliation and the hub are the daemon's own.
//
// Every completed move is checked against the game the emulator played
// (the same ply, side and SAN), so a lost or misattributed move is counted,
// not guessed.
//
// Latency is measured from the wall time of the read that carried the
// press to the moment its "complete" event is emitted ("raw"). The
// reconciliation holds a press for its scan lag (rules/reconcile
// DefaultScanLag, 1.5 s) in case the board is still catching up, and
// checks that deadline when the next input arrives, so most of the raw
// latency is that wait; "processing" is the time from the read that
// triggered the completion to the event.
package loadtest
