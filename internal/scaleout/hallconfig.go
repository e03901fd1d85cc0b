package scaleout

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/nats-io/nkeys"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/i18n"
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
	Lang      string          `yaml:"lang" toml:"lang"`             // the dashboard's language, en or es (default: each browser's)
	NATS      HallNATS        `yaml:"nats" toml:"nats"`
	Venues    []HallVenue     `yaml:"venues" toml:"venues"`
	// Access: the arbiters' logins, spectators and TLS of the listener, as
	// for serve (docs/api.md).
	Access *config.Access `yaml:"access" toml:"access"`
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
	Replicas   *int            `yaml:"replicas" toml:"replicas"`       // of the hall's streams (1, or 3 on a cluster; absent: 1)
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
// format. Every error names its setting and its line.
func ParseHallConfig(name string, data []byte) (*HallConfig, error) {
	var c HallConfig
	// the daemon's reader: unknown keys and wrong kinds named with their
	// setting and line
	lines, err := config.Decode(name, data, &c)
	if err != nil {
		return nil, tomlTypeWords(name, err)
	}
	if errs := c.validate(); len(errs) > 0 {
		all := make([]error, len(errs))
		for i, e := range errs {
			e.File = name
			if lines != nil {
				e.Line = lines(e.Field)
			}
			all[i] = e
		}
		return nil, errors.Join(all...)
	}
	return &c, nil
}

// tomlTypeError is the TOML decoder's message for a value of the wrong
// type that the reader's own check lets through (a number where text
// belongs).
var tomlTypeError = regexp.MustCompile(`line (\d+) \(last key "([^"]*)"\): incompatible types: TOML value has type ([^;]+); destination has type (\S+)`)

// tomlTypeWords says a TOML decoder's type error in words, with its line
// and setting; other errors are returned as they are.
func tomlTypeWords(name string, err error) error {
	m := tomlTypeError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	line, _ := strconv.Atoi(m[1])
	kind := func(t string) any {
		switch {
		case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
			return i18n.M("hall.config.kind.number")
		case t == "bool":
			return i18n.M("hall.config.kind.bool")
		case t == "string":
			return i18n.M("hall.config.kind.text")
		case strings.HasPrefix(t, "[]"):
			return i18n.M("hall.config.kind.list")
		case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "*"), strings.Contains(t, "."):
			return i18n.M("hall.config.kind.table")
		case strings.Contains(t, "Time"):
			return i18n.M("hall.config.kind.date")
		}
		return t
	}
	have, want := kind(m[3]), kind(m[4])
	code := "hall.config.toml-type"
	if m[4] == "string" {
		code = "hall.config.toml-type.text" // with the hint: put it in double quotes
	}
	return &config.Error{File: name, Line: line, Field: m[2], Err: i18n.Errorf(code, have, want)}
}

var venueName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Validate fills in the defaults and checks every setting; all errors are
// reported at once.
func (c *HallConfig) Validate() error {
	errs := c.validate()
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return errors.Join(all...)
}

// leafSchemes are the URL schemes a leaf-node remote can be dialled with.
var leafSchemes = map[string]bool{"nats-leaf": true, "nats": true, "tls": true, "ws": true, "wss": true}

func (c *HallConfig) validate() []*config.Error {
	c.Data = cmp.Or(c.Data, "hall-data")
	c.Listen = cmp.Or(c.Listen, config.DefaultListen)
	c.LogFormat = cmp.Or(c.LogFormat, config.DefaultLogFormat)
	c.LogLevel = cmp.Or(c.LogLevel, config.DefaultLogLevel)
	var errs []*config.Error
	bad := func(field, format string, a ...any) {
		errs = append(errs, &config.Error{Field: field, Err: i18n.Errorf(format, a...)})
	}
	if c.Lang != "" {
		if _, err := i18n.Parse("lang:", c.Lang); err != nil {
			bad("lang", "config.lang", c.Lang, i18n.Names())
		}
	}
	hostPort := func(field, v string) {
		if v == "" {
			return
		}
		if _, p, err := net.SplitHostPort(v); err != nil {
			bad(field, "hall.config.host-port", v)
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
		bad("nats.url", "hall.config.url-only")
	}
	for i, u := range strings.Split(n.URL, ",") {
		if n.URL == "" {
			break
		}
		if pu, err := url.Parse(strings.TrimSpace(u)); err != nil || pu.Host == "" || !leafSchemes[pu.Scheme] && pu.Scheme != "" {
			bad("nats.url", "hall.config.url", strings.TrimSpace(u), i+1)
		}
	}
	if n.LeafNKey != "" && !nkeys.IsValidPublicUserKey(n.LeafNKey) {
		bad("nats.leaf_nkey", "hall.config.leaf-nkey", n.LeafNKey)
	}
	if cl := n.Cluster; cl != nil {
		if cl.Name == "" {
			bad("nats.cluster.name", "hall.config.missing")
		}
		hostPort("nats.cluster.listen", cl.Listen)
		if cl.Listen == "" {
			bad("nats.cluster.listen", "hall.config.cluster-listen")
		}
		if n.Name == "" {
			bad("nats.name", "hall.config.node-name")
		}
	}
	if r := n.Replicas; r != nil && (*r < 1 || *r > 5) {
		bad("nats.replicas", "hall.config.replicas", *r)
	}
	if n.Consumer != "" && !venueName.MatchString(n.Consumer) {
		bad("nats.consumer", "hall.config.consumer", n.Consumer)
	}
	if !config.AuthGivenOnce(n.Credentials, n.NKeySeedFile, n.NKeySeedEnv) {
		bad("nats.credentials", "config.several-auth")
	}
	checkVenues(c.Venues, bad)
	for _, m := range c.Access.Problems() {
		bad("access", "config.as-is", m)
	}
	return errs
}

// checkVenues checks the venues: at least one, each with its own valid
// name, a leaf-node URL without credentials, and board numbers from 1,
// each board number of the event in one venue only (the dashboard names a
// board by its number).
func checkVenues(venues []HallVenue, bad func(field, format string, a ...any)) {
	if len(venues) == 0 {
		bad("venues", "hall.config.venues.none")
	}
	seen := map[string]bool{}
	boards := map[int]string{} // board number → the venue listing it first
	for i, v := range venues {
		f := fmt.Sprintf("venues[%d]", i)
		switch {
		case !venueName.MatchString(v.Name):
			bad(f+".name", "hall.config.venue.name", v.Name)
		case v.Name == HallDomain:
			bad(f+".name", "hall.config.venue.hall")
		case seen[v.Name]:
			bad(f+".name", "hall.config.venue.twice", v.Name)
		}
		seen[v.Name] = true
		if v.URL != "" {
			if u, err := url.Parse(v.URL); err != nil || u.Host == "" {
				bad(f+".url", "hall.config.venue.url", v.URL)
			} else if !leafSchemes[u.Scheme] {
				bad(f+".url", "hall.config.venue.scheme", v.URL, u.Scheme)
			} else if u.User != nil {
				bad(f+".url", "hall.config.venue.userinfo")
			}
		}
		here := map[int]bool{}
		for j, b := range v.Boards {
			bf := fmt.Sprintf("%s.boards[%d]", f, j)
			switch other, taken := boards[b]; {
			case b < 1:
				bad(bf, "hall.config.board.number", b)
			case here[b]:
				bad(bf, "hall.config.board.twice", b, v.Name)
			case taken:
				bad(bf, "hall.config.board.other-venue", b, other)
			default:
				boards[b] = v.Name
			}
			here[b] = true
		}
	}
}

// HallOptionsFrom maps a hall configuration to the hall's options.
func HallOptionsFrom(c *HallConfig) (HallOptions, error) {
	n := c.NATS
	o := HallOptions{Data: c.Data, Round: c.Round, URL: n.URL, Consumer: n.Consumer,
		Auth: Auth{Credentials: n.Credentials, NKeySeedFile: n.NKeySeedFile, NKeySeedEnv: n.NKeySeedEnv}}
	if n.Replicas != nil {
		o.Replicas = *n.Replicas
	}
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
