// Package scaleout spreads one event over many venue PCs with NATS
// JetStream, and gathers every board into one hall view.
//
// A venue is an `arbiterd serve` with `nats:` in its configuration. It runs
// an embedded NATS server with JetStream (its store under the data
// directory), or joins one by URL, and publishes:
//
//   - every event of every board (docs/events.md), the event's JSON
//     line as the message, on the stream ARBITERD_EVENTS, subject
//     arbiterd.<event>.<round>.<board>.events, message id
//     <event>/<round>/<board>/<game>/<seq>: a retry after a crash is
//     dropped by JetStream's duplicate window, and on a restart the
//     publisher starts after the last sequence number the stream already
//     holds for the board, so a recovered game is never published twice;
//   - the raw capture (docs/capture.md), whole lines in chunks, on
//     the stream ARBITERD_CAPTURE, subject arbiterd.<event>.<round>.<board>.capture,
//     each chunk with its byte offset in the capture file, so the hall can
//     rebuild the capture byte for byte and replay it for an appeal;
//   - a heartbeat (core NATS, not stored) every second with the last
//     sequence number of each board, so the hall can tell a venue that is
//     cut off, and how far behind it is.
//
// The local streams keep everything while the hall is unreachable: they
// are the venue's own, in its own JetStream domain (the venue's name).
// They hold the venue's own messages only: no message on a board's
// subject crosses a leaf connection, either way (every venue's streams
// listen on the same subjects, and where the venues dial the hall, the
// hall would pass each one's interest on to the others).
//
// The hall (`arbiterd hall`) runs a NATS server of its own in the JetStream
// domain "hall" (or joins a cluster by URL), connected to the venues as
// leaf nodes. Its streams ARBITERD_HALL_EVENTS and ARBITERD_HALL_CAPTURE
// source every venue's streams (JetStream sourcing across domains: no
// replication of our own). Durable consumers read them in order; each
// message is written to the hall's data directory (per venue, the venue's
// journal layout: round-R/board-B.events.jsonl and .capture) before it is
// acknowledged, and applied to a hub that the dashboard, the JSON API, the
// SSE stream, the LiveChess-compatible API and the broadcast folders serve.
// After a restart the hall reloads its files and resumes from the durable
// consumers; a message already written (a redelivery) is recognised by its
// sequence number or offset and skipped. A message that comes before the
// one it follows (that one delivered again after the ack wait, the hall
// being behind) does not wait for it: the hall reads it from its own
// stream, which holds each venue's messages in the venue's order. Only a
// message the stream does not hold (lost at the venue) is reported as a
// gap, after a short wait, and the board goes on without it.
//
// Anything the hall cannot apply — a message that is not an event, an event
// for a board the configuration does not list, a board number two venues
// claim — becomes an alert on the dashboard; the hall goes on.
//
// docs/scale-out.md is the operator's guide.
package scaleout
