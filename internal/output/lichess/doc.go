// Package lichess pushes a round's games to a lichess broadcast: arbiterd
// as the broadcast's source, without a PGN URL for lichess to poll.
//
// The lichess broadcast API takes the PGN of the round's games in the body of
// POST /api/broadcast/round/{roundId}/push, authorised by a personal API
// token (Authorization: Bearer …) that may push to the broadcast. A push
// carries at most 100 games: larger rounds go in several requests, boards in
// order. The token comes from the environment (LICHESS_TOKEN by default),
// never from a file in the repository or on the command line.
//
// The PGN is the one the round folders hold (internal/output/broadcast's Games):
// completed moves (FIDE Law 6.2.1) with [%clk] and [%emt], stable tags.
// Pushes are coalesced: at most one every Interval (3 s by default), each
// with the games as they stand, and only the requests whose games changed
// since the last accepted push are sent. Rate limits and server errors
// (429, 5xx) and network failures are retried with exponential back-off,
// honouring Retry-After; the next try sends what is current then. Other
// refusals (a bad token, an unknown round) are reported and not repeated
// until the games change.
//
// Nothing here contacts lichess on its own: the daemon starts a Pusher only
// when the configuration names a broadcast round, and the tests run against a
// local fake server.
package lichess
