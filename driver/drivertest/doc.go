// Package drivertest helps test device drivers without hardware: Playback
// replays recorded device traffic to a driver and fails on any write the
// recording does not expect, and the DGT frame builders produce board
// messages the way a board would send them — an encoder written
// independently of driver/dgt's decoder, so each checks the other.
package drivertest
