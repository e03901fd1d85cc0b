//go:build !race

package audit

const simRace = false
