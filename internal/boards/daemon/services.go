package daemon

import (
	"context"
	"path/filepath"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/lichess"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// DefaultMounts are the daemon's HTTP services over its hub: the
// dashboard and its JSON/SSE API at "/", the LiveChess-compatible API at
// /api/v1.0.
func (d *Daemon) DefaultMounts() []Mount {
	lc := livechess.New(d.hub).Handler()
	access, err := d.webAccess()
	if err != nil {
		// Checked when the listener was opened (New fails then): what
		// is left is bcrypt failing. Nobody can log in then: a login
		// without a hash matches no secret.
		d.log.Error("arbiters' logins: nobody can write", "err", err)
		access = &web.Access{Arbiters: []web.Login{{}}}
	}
	ws := web.New(d.hub, web.Options{Arbiter: d, Access: access})
	return []Mount{
		{Pattern: "/", Handler: ws.Handler(), OnShutdown: ws.Close},
		{Pattern: "/api/v1.0/", Handler: lc},
		{Pattern: "/api/v1.0", Handler: lc},
	}
}

// DefaultRunners are the feeds the configuration asks for: the broadcast
// round folders (unless "off"), the LiveChess-compatible listener and the
// lichess push (when configured).
func (d *Daemon) DefaultRunners() []Runner {
	c := d.cfg
	meta := broadcast.Meta{Event: c.Event, Site: c.Site, Date: time.Now().UTC().Format("2006.01.02"), DefaultRound: c.Round}
	var rs []Runner
	if c.Broadcast != "off" {
		dir := c.Broadcast
		if dir == "" {
			dir = filepath.Join(c.Data, "broadcast")
		}
		f := broadcast.New(dir, d.hub, broadcast.Options{Meta: meta, FS: d.o.Files, Interval: d.o.FileRetry,
			OnError: func(err error) {
				d.log.Warn("broadcast folder", "err", err)
			},
			OnCaughtUp: func(path string) {
				d.log.Info("broadcast folder: written again", "file", path)
			}})
		rs = append(rs, Runner{Name: "broadcast", Run: f.Run})
	}
	if c.LiveChess != nil {
		rs = append(rs, d.liveChessRunner())
	}
	if l := c.Lichess; l != nil {
		p := lichess.NewPusher(lichess.Options{RoundID: l.RoundID, Round: c.Round, Meta: meta, BaseURL: l.BaseURL,
			TokenEnv: l.TokenEnv, OnPush: func(r lichess.Result) {
				if r.Err != nil {
					d.log.Warn("lichess push failed", "games", r.Games, "status", r.Status, "err", r.Err, "retry", r.Retry)
				} else {
					d.log.Debug("lichess push", "games", r.Games, "status", r.Status)
				}
			}}, d.hub)
		rs = append(rs, Runner{Name: "lichess", Run: func(ctx context.Context) error { return p.Run(ctx) }})
	}
	return rs
}
