package serve

import (
	"fmt"
	"net"

	"github.com/arbiterd/arbiterd/internal/boards/access"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// webAccess is the dashboard listener's access (config access). nil
// without an access section.
func (d *Daemon) webAccess() (*web.Access, error) { return access.Web(d.cfg.Access) }

// secure serves ln with TLS when the access section names a certificate.
func (d *Daemon) secure(ln net.Listener) (net.Listener, error) {
	l, err := access.Listen(d.cfg.Access, ln)
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	return l, nil
}

// accessWarning is what the daemon says at start about who can write on
// the dashboard's listener on host, reachable from the network (""
// nothing to say).
func (d *Daemon) accessWarning(host string) string { return access.Warning(d.cfg.Access, host) }
