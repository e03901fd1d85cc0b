// Package capture reads and writes capture v1, arbiterd's journal: every
// byte that crossed a device port, in both directions, with the time it
// crossed (docs/capture.md).
//
// A capture is plain text:
//
//	#capture v1
//	#port board dgt
//	#meta white=Carlsen, Magnus
//	0.000000 board w 4b
//	0.012480 board r 8e00050c00
//
// The first line is exactly "#capture v1". "#port NAME DRIVER" declares a
// port before its first data line; "#meta KEY=VALUE" sets a game setting
// from that point on; "#session ..." and "#arbiter ..." are arbiterd's
// markers, records of their own kinds (KindSession, KindArbiter; comments
// to a capture v1 reader, see marker.go); other lines starting with '#' are
// comments; empty lines are ignored. arbiterd adds meta keys of its own (docs/extensions.md):
// site, and the provenance every capture records at its start —
// arbiterd-version, arbiterd-revision and started (the wall-clock time,
// RFC 3339); they change no event. A data line is "SECONDS PORT DIR HEX": seconds since
// the capture started with exactly six decimals, never decreasing; a
// declared port; r (read from the device) or w (written to it); the bytes
// of one read or write call as lower-case hex.
//
// Writer produces captures for the live daemon: it flushes every data line
// before returning (so the bytes are in the file before arbiterd acts on
// them), syncs to disk when a second of capture time has passed since the
// last sync, on demand (Sync) at completed moves and flags, and from
// RunSync while the ports are quiet. Create starts a capture file; Append
// continues one after a restart (cutting off a partial last line a crash
// left). Reader is
// strict: every record comes with its line number, and anything that is
// not capture v1 is an error naming the line and what is wrong.
package capture
