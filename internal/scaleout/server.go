package scaleout

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// ServerOptions configure an embedded NATS server with JetStream.
type ServerOptions struct {
	Name     string // the server's name (unique in a cluster)
	Domain   string // the JetStream domain: the venue's name, or HallDomain
	StoreDir string // JetStream's directory
	// Listen is the client address (host:port; port 0 picks one); ""
	// opens no client port: the process talks to its server in-process.
	Listen string
	// LeafListen accepts leaf-node connections (host:port); "" does not.
	LeafListen string
	// LeafNKey, when set, is the public NKey a leaf node must sign with.
	LeafNKey string
	// Remotes are the leaf-node connections to dial, each given by its
	// URLs (several URLs: the nodes of one cluster).
	Remotes [][]string
	// Auth signs the outgoing leaf connections.
	Auth Auth
	// Cluster joins the server into a cluster (a hall of three nodes).
	Cluster *ClusterOptions
	// TLS, when set, secures the leaf and cluster listeners and the
	// remotes.
	TLS *tls.Config
}

// ClusterOptions make an embedded server one node of a cluster.
type ClusterOptions struct {
	Name   string   `yaml:"name" toml:"name"`     // the cluster's name
	Listen string   `yaml:"listen" toml:"listen"` // the route listener, host:port
	Routes []string `yaml:"routes" toml:"routes"` // nats-route://host:port of the other nodes
}

// Auth is how a NATS connection authenticates: a credentials file, or an
// NKey seed (read from a file or an environment variable). Nothing here is
// a secret itself.
type Auth struct {
	Credentials  string // a .creds file
	NKeySeedFile string
	NKeySeedEnv  string
}

// seed returns the NKey seed, or "" when none is configured.
func (a Auth) seed() (string, error) {
	switch {
	case a.NKeySeedFile != "":
		b, err := os.ReadFile(a.NKeySeedFile)
		if err != nil {
			return "", fmt.Errorf("scaleout: nkey seed: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	case a.NKeySeedEnv != "":
		v := strings.TrimSpace(os.Getenv(a.NKeySeedEnv))
		if v == "" {
			return "", fmt.Errorf("scaleout: nkey seed: the environment variable %s is empty or not set", a.NKeySeedEnv)
		}
		return v, nil
	}
	return "", nil
}

// natsOptions are the client options for a.
func (a Auth) natsOptions() ([]nats.Option, error) {
	if a.Credentials != "" {
		return []nats.Option{nats.UserCredentials(a.Credentials)}, nil
	}
	seed, err := a.seed()
	if err != nil || seed == "" {
		return nil, err
	}
	kp, err := nkeys.FromSeed([]byte(seed))
	if err != nil {
		return nil, fmt.Errorf("scaleout: nkey seed: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("scaleout: nkey seed: %w", err)
	}
	return []nats.Option{nats.Nkey(pub, kp.Sign)}, nil
}

// TLSConfig loads certificate files into a tls.Config: a certificate and
// key (either may be empty for a client that only checks the server) and
// a CA. With a CA and a certificate, the other side's certificate is
// required and checked too.
func TLSConfig(cert, key, ca string) (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if cert != "" {
		kp, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("scaleout: tls: %w", err)
		}
		c.Certificates = []tls.Certificate{kp}
	}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("scaleout: tls: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("scaleout: tls: %s holds no PEM certificate", ca)
		}
		c.RootCAs, c.ClientCAs = pool, pool
		if cert != "" {
			c.ClientAuth = tls.RequireAndVerifyClientCert
		}
	}
	return c, nil
}

func splitHostPort(hp string) (string, int, error) {
	h, p, err := net.SplitHostPort(hp)
	if err != nil {
		return "", 0, err
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, err
	}
	if n == 0 {
		n = server.RANDOM_PORT
	}
	return h, n, nil
}

// Server is an embedded NATS server and the addresses it listens on.
type Server struct {
	*server.Server
	LeafAddr    string // the leaf-node listener (host:port), "" when none
	ClusterAddr string // the route listener, "" when none
}

// freePort resolves port 0 in hostPort to a port free now, so that the
// address is known before the server starts (and stays the same when it
// restarts on it).
func freePort(hostPort string) (string, error) {
	if hostPort == "" {
		return "", nil
	}
	h, p, err := net.SplitHostPort(hostPort)
	if err != nil || p != "0" {
		return hostPort, err
	}
	l, err := net.Listen("tcp", net.JoinHostPort(h, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// StartServer starts an embedded NATS server with JetStream and waits
// until it accepts connections.
func StartServer(o ServerOptions) (*Server, error) {
	if o.Domain == "" || o.StoreDir == "" {
		return nil, errors.New("scaleout: a server needs a JetStream domain and a store directory")
	}
	opts, err := o.natsOptions()
	if err != nil {
		return nil, err
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("scaleout: nats server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return nil, errors.New("scaleout: the embedded NATS server did not become ready in 30 s")
	}
	srv := &Server{Server: s, LeafAddr: o.LeafListen}
	if o.Cluster != nil {
		srv.ClusterAddr = o.Cluster.Listen
	}
	return srv, nil
}

// natsOptions is the embedded server's configuration. The leaf and cluster
// addresses that ask for a free port are given one in o.
func (o *ServerOptions) natsOptions() (*server.Options, error) {
	opts := &server.Options{
		ServerName: o.Name, JetStream: true, JetStreamDomain: o.Domain, StoreDir: o.StoreDir,
		NoSigs: true, NoLog: true, DontListen: o.Listen == "", Host: "127.0.0.1", Port: server.RANDOM_PORT,
	}
	if o.Listen != "" {
		h, p, err := splitHostPort(o.Listen)
		if err != nil {
			return nil, fmt.Errorf("scaleout: listen: %w", err)
		}
		opts.Host, opts.Port = h, p
	}
	var err error
	if o.LeafListen, err = freePort(o.LeafListen); err != nil {
		return nil, fmt.Errorf("scaleout: leaf_listen: %w", err)
	}
	if o.Cluster != nil {
		c := *o.Cluster
		if c.Listen, err = freePort(c.Listen); err != nil {
			return nil, fmt.Errorf("scaleout: cluster listen: %w", err)
		}
		o.Cluster = &c
	}
	if o.LeafListen != "" {
		h, p, err := splitHostPort(o.LeafListen)
		if err != nil {
			return nil, fmt.Errorf("scaleout: leaf_listen: %w", err)
		}
		opts.LeafNode.Host, opts.LeafNode.Port, opts.LeafNode.Nkey = h, p, o.LeafNKey
		opts.LeafNode.TLSConfig = o.TLS
		// The other side dials the URLs it is configured with, never
		// addresses learnt from this server (behind NAT they would be
		// wrong, and a cut link must stay cut).
		opts.LeafNode.NoAdvertise = true
	}
	if len(o.Remotes) > 0 {
		if err := o.leafRemotes(opts); err != nil {
			return nil, err
		}
	}
	if o.Cluster != nil {
		if err := o.clusterRoutes(opts); err != nil {
			return nil, err
		}
	}
	return opts, nil
}

// leafRemotes adds the leaf-node connections the server dials, signed with
// o.Auth, each over TLS when o.TLS is set.
//
// No board message (the subjects of the venues' streams) crosses a leaf
// connection either way: every venue's streams listen on the same
// subjects, so without this a venue's stream would also store what
// another venue publishes while both are connected (the interest of
// each venue's stream reaches the others through the hall). The hall
// would then source a venue's messages from two streams, and have them
// in no fixed order: a venue's later messages could come through the
// other venue's stream long before its own stream's earlier ones (one
// source held up after a hall node fails), and the hall take the earlier
// ones as lost. The hall reads the venues' streams by sourcing, which
// does not use these subjects.
func (o *ServerOptions) leafRemotes(opts *server.Options) error {
	seed, err := o.Auth.seed()
	if err != nil {
		return err
	}
	for _, urls := range o.Remotes {
		r := &server.RemoteLeafOpts{Credentials: o.Auth.Credentials, Nkey: seed,
			DenyImports: []string{EventsSubjects, CaptureSubjects}, DenyExports: []string{EventsSubjects, CaptureSubjects}}
		for _, s := range urls {
			u, err := url.Parse(s)
			if err != nil {
				return fmt.Errorf("scaleout: leaf remote %q: %w", s, err)
			}
			r.URLs = append(r.URLs, u)
		}
		if o.TLS != nil {
			r.TLS, r.TLSConfig = true, o.TLS.Clone()
		}
		opts.LeafNode.Remotes = append(opts.LeafNode.Remotes, r)
	}
	opts.LeafNode.ReconnectInterval = time.Second
	return nil
}

// clusterRoutes makes the server a node of o.Cluster: its listener and the
// routes to the other nodes.
func (o *ServerOptions) clusterRoutes(opts *server.Options) error {
	c := o.Cluster
	h, p, err := splitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("scaleout: cluster listen: %w", err)
	}
	opts.Cluster.Name, opts.Cluster.Host, opts.Cluster.Port = c.Name, h, p
	opts.Cluster.TLSConfig = o.TLS
	for _, s := range c.Routes {
		u, err := url.Parse(s)
		if err != nil {
			return fmt.Errorf("scaleout: route %q: %w", s, err)
		}
		opts.Routes = append(opts.Routes, u)
	}
	return nil
}

// connect opens a client connection: in-process to an embedded server, or
// to urls. It reconnects for ever.
func connect(name string, s *Server, urls string, a Auth, tlsc *tls.Config) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true)}
	ao, err := a.natsOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, ao...)
	if s != nil {
		opts = append(opts, nats.InProcessServer(s.Server))
	} else if tlsc != nil {
		opts = append(opts, nats.Secure(tlsc.Clone()))
	}
	nc, err := nats.Connect(urls, opts...)
	if err != nil {
		return nil, fmt.Errorf("scaleout: connect: %w", err)
	}
	return nc, nil
}
