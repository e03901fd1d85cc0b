package scaleout

import (
	"fmt"
	"net"

	"github.com/arbiterd/arbiterd/internal/boards/access"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// The hall's listener takes the same access section as the daemon's
// (docs/api.md): the arbiters who log in to write (acknowledge, claim,
// decide), whether spectators may watch, and a certificate for TLS. The
// rules are the web server's own (web.Access); a claim or decision the
// hall takes then goes to the board's venue to be recorded.

// webAccess is the hall listener's access: the arbiters' logins and the
// spectators. nil without an access section.
func webAccess(a *config.Access) (*web.Access, error) { return access.Web(a) }

// secure serves ln with TLS when the access section names a certificate.
func secure(a *config.Access, ln net.Listener) (net.Listener, error) {
	l, err := access.Listen(a, ln)
	if err != nil {
		return nil, fmt.Errorf("hall: %w", err)
	}
	return l, nil
}

// accessWarning is what the hall says at start about who can write on its
// listener at addr ("" when it listens on this computer only, or nothing
// is to be said).
func accessWarning(a *config.Access, addr net.Addr) string {
	host, _, err := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); err != nil || ip != nil && ip.IsLoopback() {
		return ""
	}
	return access.Warning(a, host)
}
