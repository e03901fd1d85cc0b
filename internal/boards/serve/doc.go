// Package serve is `arbiterd serve`: it runs every board of a round at
// once, journals each game, recovers unfinished games after a restart, and
// serves the live view, the feeds and the metrics over HTTP.
//
// Each board gets its own supervised tree of goroutines: the live runner
// (internal/boards/live: the DGT session, the capture, the pipeline that turns
// moves and presses into completed moves and flag verdicts — FIDE Laws
// 6.2.1, 6.3.1, 6.4, 6.9) and the capture's periodic sync. A board whose
// port fails or is unplugged does not disturb the others: its runner marks
// the disconnection in the capture and reopens the port with back-off; the
// board's start-up dump on the new line resyncs the game, which goes on in
// the same capture. A board configured with a separate clock (`clock:`, a
// lineclock) has its clock read on a second port by the same runner, into
// the same capture; an unplugged clock is a clock-disconnected anomaly and
// is reopened with the same back-off.
//
// The journal is the data directory: DATA/round-R/board-B.capture is the
// game's capture (docs/capture.md), the only source of truth, next
// to board-B.events.jsonl (the event stream, docs/events.md) and
// board-B.pgn (the game as it stands). The capture is synced to disk before
// a completed move or a verdict is published, and at most a second after
// any other data, so killing the daemon at any moment loses no completed
// move, press or verdict. On start the daemon replays every capture of the
// round: a finished game (an end event, or a flag verdict that ends it) is
// shown as it ended, an unfinished one is continued — appended to, with
// capture time going on from its last record plus the time the daemon was
// down, the gap marked as a disconnection of the board (nobody watched it)
// — so the event stream after a restart is the replay of the whole
// capture.
//
// A capture that cannot be written (a full disk) is reported loudly — an
// error in the log, an alert on the board, a metric — and the game goes on
// in memory.
package serve
