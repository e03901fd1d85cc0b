package serve

import (
	"golang.org/x/text/language"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// liveChessRetry is how long the LiveChess listener waits before trying
// its address again when it is taken (by DGT LiveChess itself, say).
const liveChessRetry = output.DefaultLiveChessRetry

// outputs are the daemon's outputs over its hub, as its configuration
// asks for them (internal/output, as the hall builds its own).
func (d *Daemon) outputs() *output.Outputs {
	access, err := d.webAccess()
	if err != nil {
		// Checked when the listener was opened (New fails then): what
		// is left is bcrypt failing. Nobody can log in then: a login
		// without a hash matches no secret.
		d.log.Error("arbiters' logins: nobody can write", "err", err)
		access = &web.Access{Arbiters: []web.Login{{}}}
	}
	c := d.cfg
	// The dashboard's language when the configuration fixes one (checked
	// when it was read); else each browser's.
	lang := language.Und
	if c.Lang != "" {
		lang, _ = i18n.Parse("lang:", c.Lang)
	}
	return output.New(d.hub, output.Config{Event: c.Event, Site: c.Site, Round: c.Round, Data: c.Data,
		Broadcast: c.Broadcast, Lichess: c.Lichess, LiveChess: c.LiveChess},
		output.Options{Web: web.Options{Arbiter: d, Access: access, Lang: lang}, Logger: d.log, Files: d.o.Files,
			FileRetry: d.o.FileRetry, LiveChessRetry: liveChessRetry, Now: d.o.Now})
}

// defaultServices fills in the mounts and runners the options leave nil:
// the dashboard and its JSON/SSE API at "/", the LiveChess-compatible API
// at /api/v1.0, and the feeds the configuration asks for.
func (d *Daemon) defaultServices() {
	if d.o.Mounts != nil && d.o.Runners != nil {
		return
	}
	out := d.outputs()
	if d.o.Mounts == nil {
		lc := out.LiveChess.Handler()
		d.o.Mounts = []Mount{
			{Pattern: "/", Handler: out.Web.Handler(), OnShutdown: out.Close},
			{Pattern: "/api/v1.0/", Handler: lc},
			{Pattern: "/api/v1.0", Handler: lc},
		}
	}
	if d.o.Runners == nil {
		d.o.Runners = out.Feeds
	}
}
