package decode_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// immortal is the Immortal Game (Anderssen–Kieseritzky, London 1851).
var immortal = []string{"e4", "e5", "f4", "exf4", "Bc4", "Qh4+", "Kf1", "b5", "Bxb5", "Nf6", "Nf3", "Qh6",
	"d3", "Nh5", "Nh4", "Qg5", "Nf5", "c6", "g4", "Nf6", "Rg1", "cxb5", "h4", "Qg6", "h5", "Qg5", "Qf3",
	"Ng8", "Bxf4", "Qf6", "Nc3", "Bc5", "Nd5", "Qxb2", "Bd6", "Bxg1", "e5", "Qxa1+", "Ke2", "Na6",
	"Nxg7+", "Kd8", "Qf6+", "Nxf6", "Be7#"}

// TestDecoderAgainstEmulator cross-checks driver/dgt's decoder with the
// emulator, an independent implementation of the device side: whole games
// over many seeds, both board orientations, decode without a skipped byte
// whichever way the stream is cut, and garbage the emulator injects costs
// no valid message after it.
func TestDecoderAgainstEmulator(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		for seed := int64(1); seed <= 6; seed++ {
			cfg := emulator.Config{Game: immortal, Seed: seed, Reversed: reversed,
				Periods: []emulator.Period{{Time: 30 * time.Minute, Increment: 10 * time.Second}}}
			garbage := seed%2 == 0
			if garbage {
				a, err := emulator.ParseAction("garbage@ply=20")
				if err != nil {
					t.Fatal(err)
				}
				cfg.Script = []emulator.Action{a}
			}
			emu, err := emulator.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			chunks := emu.Play()
			whole := dgt.NewDecoder()
			var msgs []dgt.Message
			var all []byte
			for _, c := range chunks {
				msgs = append(msgs, whole.Feed(c.Data)...)
				all = append(all, c.Data...)
			}
			bytewise := dgt.NewDecoder()
			var again []dgt.Message
			for i := range all {
				again = append(again, bytewise.Feed(all[i:i+1])...)
			}
			if !reflect.DeepEqual(msgs, again) {
				t.Fatalf("seed %d: byte-at-a-time decoding differs", seed)
			}
			st := whole.Stats()
			if st.Unknown != 0 || (!garbage && (st.Corrupt != 0 || st.Skipped != 0)) {
				t.Errorf("reversed %v seed %d: %+v (%v)", reversed, seed, st, whole.LastError())
			}
			if garbage && st.Skipped == 0 && st.Corrupt == 0 {
				t.Errorf("seed %d: injected garbage went unnoticed: %+v", seed, st)
			}
			var fields, clocks int
			for _, m := range msgs {
				switch m := m.(type) {
				case dgt.FieldUpdate:
					fields++
				case dgt.ClockTime:
					clocks++
					for _, f := range []dgt.FaceTime{m.Left, m.Right} {
						if f.Time > 30*time.Minute+time.Duration(len(immortal))*10*time.Second {
							t.Fatalf("seed %d: clock shows %v", seed, f.Time)
						}
					}
				}
			}
			if fields < 2*len(immortal) || clocks < len(immortal) {
				t.Errorf("reversed %v seed %d: %d field updates, %d clock readings for %d plies", reversed, seed, fields, clocks, len(immortal))
			}
		}
	}
}
