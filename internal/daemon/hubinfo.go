package daemon

import (
	"github.com/arbiterd/arbiterd/internal/daemon/config"
	"github.com/arbiterd/arbiterd/internal/hub"
)

func hubInfo(c *config.Config, b config.Board) hub.Info {
	return hub.Info{ID: b.ID(), Round: c.Round, White: b.White, Black: b.Black, TimeControl: b.TimeControl}
}
