package daemon

import (
	"github.com/arbiterd/arbiterd/internal/boards/config"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

func hubInfo(c *config.Config, b config.Board) hub.Info {
	return hub.Info{ID: b.ID(), Round: c.Round, White: b.White, Black: b.Black, TimeControl: b.TimeControl}
}
