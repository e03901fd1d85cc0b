package serve

import (
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// hubInfo describes a board to the hub; a board with a separate clock
// (config clock:) names its port, which the capture declares with the
// clock's driver.
func hubInfo(c *config.Config, b config.Board) hub.Info {
	in := hub.Info{ID: b.ID(), Round: c.Round, White: b.White, Black: b.Black, TimeControl: b.TimeControl}
	if b.Clock != nil {
		in.ClockPort = ClockPortName
	}
	return in
}
