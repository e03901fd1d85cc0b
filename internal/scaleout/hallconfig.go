package scaleout

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"

	"github.com/arbiterd/arbiterd/internal/boards/config"
)

// HallConfig is `arbiterd hall`'s configuration file (YAML or TOML, by its
// extension). Credentials are read from files or the environment, never
// from this file.
type HallConfig struct {
	Data      string          `yaml:"data" toml:"data"`             // the hall's data directory (default hall-data)
	Listen    string          `yaml:"listen" toml:"listen"`         // HTTP address (default 127.0.0.1:8080)
	Event     string          `yaml:"event" toml:"event"`           // the event's name (feeds)
	Site      string          `yaml:"site" toml:"site"`             // PGN Site of the feeds
	Round     string          `yaml:"round" toml:"round"`           // show only this round (default: every round)
	Broadcast string          `yaml:"broadcast" toml:"broadcast"`   // broadcast round folders (default DATA/broadcast; "off")
	Lichess   *config.Lichess `yaml:"lichess" toml:"lichess"`       // push to a lichess broadcast round (optional)
	LogFormat string          `yaml:"log_format" toml:"log_format"` // text or json
	LogLevel  string          `yaml:"log_level" toml:"log_level"`   // debug, info, warn, error
	NATS      HallNATS        `yaml:"nats" toml:"nats"`
	Venues    []HallVenue     `yaml:"venues" toml:"venues"`
}

// HallNATS is the hall's NATS server, or the cluster it joins.
type HallNATS struct {
	Name       string          `yaml:"name" toml:"name"`               // this node's name (default arbiterd-hall)
	URL        string          `yaml:"url" toml:"url"`                 // join this server or cluster (comma-separated) instead of embedding one
	Store      string          `yaml:"store" toml:"store"`             // JetStream directory (default DATA/nats)
	Listen     string          `yaml:"listen" toml:"listen"`           // client address (optional)
	LeafListen string          `yaml:"leaf_listen" toml:"leaf_listen"` // accept venues' leaf connections (host:port)
	LeafNKey   string          `yaml:"leaf_nkey" toml:"leaf_nkey"`     // the public NKey venues must sign with (optional)
	Cluster    *ClusterOptions `yaml:"cluster" toml:"cluster"`         // make this node part of a hall cluster
	Replicas   int             `yaml:"replicas" toml:"replicas"`       // of the hall's streams (1, or 3 on a cluster)
	Consumer   string          `yaml:"consumer" toml:"consumer"`       // durable consumer name (one per hall process; default hall)

	Credentials  string          `yaml:"credentials" toml:"credentials"`
	NKeySeedFile string          `yaml:"nkey_seed_file" toml:"nkey_seed_file"`
	NKeySeedEnv  string          `yaml:"nkey_seed_env" toml:"nkey_seed_env"`
	TLS          *config.NATSTLS `yaml:"tls" toml:"tls"`
}

// HallVenue is one venue the hall gathers.
type HallVenue struct {
	Name   string `yaml:"name" toml:"name"`     // the venue's nats.venue
	URL    string `yaml:"url" toml:"url"`       // its leaf-node URL, when the hall dials it (nats-leaf://venue:7422)
	Boards []int  `yaml:"boards" toml:"boards"` // its boards (optional: then any board is accepted)
}

// LoadHallConfig reads and checks a hall configuration file.
func LoadHallConfig(path string) (*HallConfig, error) { return config.LoadFile(path, ParseHallConfig) }

// ParseHallConfig reads a hall configuration; name's extension gives the
// format.
func ParseHallConfig(name string, data []byte) (*HallConfig, error) {
	var c HallConfig
	// the daemon's reader: unknown keys and wrong kinds named with their
	// setting and line
	if _, err := config.Decode(name, data, &c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &c, nil
}

var venueName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Validate fills in the defaults and checks every setting; all errors are
// reported at once.
func (c *HallConfig) Validate() error {
	c.Data = cmp.Or(c.Data, "hall-data")
	c.Listen = cmp.Or(c.Listen, config.DefaultListen)
	c.LogFormat = cmp.Or(c.LogFormat, config.DefaultLogFormat)
	c.LogLevel = cmp.Or(c.LogLevel, config.DefaultLogLevel)
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, a...)))
	}
	hostPort := func(field, v string) {
		if v == "" {
			return
		}
		if _, p, err := net.SplitHostPort(v); err != nil {
			bad(field, "%q is not host:port", v)
		} else if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 65535 {
			bad(field, "port %q is not a number from 0 to 65535", p)
		}
	}
	hostPort("listen", c.Listen)
	hostPort("nats.listen", c.NATS.Listen)
	hostPort("nats.leaf_listen", c.NATS.LeafListen)
	config.CheckLog(c.LogFormat, c.LogLevel, bad)
	n := &c.NATS
	if n.URL != "" && (n.LeafListen != "" || n.Cluster != nil || n.Listen != "" || n.Store != "") {
		bad("nats.url", "joining a server by URL leaves listen, leaf_listen, cluster and store to that server")
	}
	if cl := n.Cluster; cl != nil {
		if cl.Name == "" {
			bad("nats.cluster.name", "missing")
		}
		hostPort("nats.cluster.listen", cl.Listen)
		if cl.Listen == "" {
			bad("nats.cluster.listen", "missing: the route address of this node")
		}
		if n.Name == "" {
			bad("nats.name", "each node of a cluster needs its own name")
		}
	}
	if n.Replicas < 0 || n.Replicas > 5 {
		bad("nats.replicas", "%d: 1 to 5", n.Replicas)
	}
	if !config.AuthGivenOnce(n.Credentials, n.NKeySeedFile, n.NKeySeedEnv) {
		bad("nats.credentials", config.SeveralAuth)
	}
	checkVenues(c.Venues, bad)
	return errors.Join(errs...)
}

// checkVenues checks the venues: at least one, each with its own valid
// name, a leaf-node URL without credentials, and board numbers from 1.
func checkVenues(venues []HallVenue, bad func(field, format string, a ...any)) {
	if len(venues) == 0 {
		bad("venues", "no venues: the hall gathers at least one")
	}
	seen := map[string]bool{}
	for i, v := range venues {
		f := fmt.Sprintf("venues[%d]", i)
		switch {
		case !venueName.MatchString(v.Name):
			bad(f+".name", "%q: a venue name is 1 to 64 letters, digits, '_' or '-' (its nats.venue)", v.Name)
		case v.Name == HallDomain:
			bad(f+".name", `"hall" is the hall's own JetStream domain`)
		case seen[v.Name]:
			bad(f+".name", "venue %s is listed twice", v.Name)
		}
		seen[v.Name] = true
		if v.URL != "" {
			if u, err := url.Parse(v.URL); err != nil || u.Host == "" {
				bad(f+".url", "%q is not a leaf-node URL (nats-leaf://host:7422)", v.URL)
			} else if u.User != nil {
				bad(f+".url", "no user or password in the URL: use nats.credentials, nkey_seed_file or nkey_seed_env")
			}
		}
		for _, b := range v.Boards {
			if b < 1 {
				bad(f+".boards", "%d: a board number is 1 or more", b)
			}
		}
	}
}

// HallOptionsFrom maps a hall configuration to the hall's options.
func HallOptionsFrom(c *HallConfig) (HallOptions, error) {
	n := c.NATS
	o := HallOptions{Data: c.Data, Round: c.Round, URL: n.URL, Replicas: n.Replicas, Consumer: n.Consumer,
		Auth: Auth{Credentials: n.Credentials, NKeySeedFile: n.NKeySeedFile, NKeySeedEnv: n.NKeySeedEnv}}
	if t := n.TLS; t != nil {
		tc, err := TLSConfig(t.Cert, t.Key, t.CA)
		if err != nil {
			return o, err
		}
		o.TLS = tc
	}
	o.Server = ServerOptions{Name: n.Name, Listen: n.Listen, LeafListen: n.LeafListen, LeafNKey: n.LeafNKey,
		Cluster: n.Cluster, Auth: o.Auth, TLS: o.TLS, StoreDir: n.Store}
	for _, v := range c.Venues {
		r := VenueRef{Name: v.Name}
		for _, b := range v.Boards {
			r.Boards = append(r.Boards, strconv.Itoa(b))
		}
		o.Venues = append(o.Venues, r)
		if v.URL != "" {
			o.Server.Remotes = append(o.Server.Remotes, []string{v.URL})
		}
	}
	return o, nil
}
