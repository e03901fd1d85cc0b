//go:build !race

package unwinnable

const raceEnabled = false
