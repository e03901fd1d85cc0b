package emulator_test

import (
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// A game to a flag fall, as an end-to-end test would script it: Black
// oversteps the time on ply 8 (its 4th move) in the last period. Play
// gives the bytes without waiting; Run plays them on a port in real time.
func Example() {
	flag, err := emulator.ParseAction("flag@ply=8")
	if err != nil {
		panic(err)
	}
	em, err := emulator.New(emulator.Config{
		Game:    []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"},
		Periods: []emulator.Period{{Time: 3 * time.Minute, Increment: 2 * time.Second}},
		Seed:    1,
		Script:  []emulator.Action{flag},
	})
	if err != nil {
		panic(err)
	}
	chunks := em.Play()
	last := chunks[len(chunks)-1]
	// The last message is the clock: Black's face (right) blocked at zero
	// (0x10 in the hour byte), the clock stopped (status bit 0 clear).
	fmt.Printf("% x\n", last.Data[len(last.Data)-10:])
	// Output:
	// 8d 00 0a 30 00 00 20 02 44 02
}
