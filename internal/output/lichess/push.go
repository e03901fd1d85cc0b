package lichess

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// DefaultBaseURL is where lichess serves its API.
const DefaultBaseURL = "https://lichess.org"

// DefaultTokenEnv is the environment variable the token is read from.
const DefaultTokenEnv = "LICHESS_TOKEN"

// MaxGames is the most games lichess takes in one push.
const MaxGames = 100

// Options configure a Pusher.
type Options struct {
	// RoundID is the lichess broadcast round to push to (required).
	RoundID string
	// Round selects the hub's boards to push: those of this round ("":
	// every board).
	Round string
	// Meta are the Event, Site and Date tags (as for the round folders;
	// Date defaults to the day the pusher was made).
	Meta broadcast.Meta
	// BaseURL is the lichess server (default DefaultBaseURL).
	BaseURL string
	// Token is the API token; empty: read from the environment variable
	// TokenEnv (default LICHESS_TOKEN).
	Token    string
	TokenEnv string
	// Version names arbiterd's version in the User-Agent (default: the
	// module version from the build, or "devel").
	Version string
	// Interval is the shortest time between two pushes (default 3s).
	Interval time.Duration
	// MaxGames bounds the games per request (default and at most 100).
	MaxGames int
	// MinBackoff and MaxBackoff bound the wait before a retry (default 2s
	// and 2 min); it doubles after each failure. A Retry-After longer than
	// the back-off is waited out.
	MinBackoff, MaxBackoff time.Duration
	// Client makes the requests (default: a client with a 30 s timeout).
	Client *http.Client
	// OnPush hears about every request made (nil: ignored).
	OnPush func(Result)
}

// Result is what one push request came to.
type Result struct {
	Games      int           // games in the request
	First      string        // the first board in it
	Status     int           // HTTP status (0: no answer)
	Err        error         // nil when lichess took the games
	Retry      time.Duration // when Err is temporary: the wait before the next try
	GameErrors []string      // games lichess took but could not read, as it reported them
}

// Pusher pushes a round's games to a lichess broadcast round.
type Pusher struct {
	o     Options
	h     *hub.Hub
	games *broadcast.Games
	push  *url.URL
	ua    string

	sent    map[int][32]byte // request index → checksum of the body lichess took (or refused for good)
	backoff time.Duration
}

var roundID = regexp.MustCompile(`^[A-Za-z0-9]{1,32}$`)

// NewPusher returns a pusher of h's boards; Run checks the options.
func NewPusher(o Options, h *hub.Hub) *Pusher {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	if o.TokenEnv == "" {
		o.TokenEnv = DefaultTokenEnv
	}
	if o.Version == "" {
		o.Version = buildVersion()
	}
	if o.Interval <= 0 {
		o.Interval = 3 * time.Second
	}
	if o.MaxGames <= 0 || o.MaxGames > MaxGames {
		o.MaxGames = MaxGames
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 2 * time.Second
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(2*time.Minute, o.MinBackoff)
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 30 * time.Second}
	}
	if o.OnPush == nil {
		o.OnPush = func(Result) {}
	}
	if o.Meta.Date == "" {
		o.Meta.Date = time.Now().UTC().Format("2006.01.02") // as the round folders do
	}
	return &Pusher{o: o, h: h, games: broadcast.NewGames(h, o.Meta), sent: map[int][32]byte{},
		ua: "arbiterd/" + o.Version + " (chess arbiter daemon; broadcast push)"}
}

func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// UserAgent is the User-Agent the pusher sends.
func (p *Pusher) UserAgent() string { return p.ua }

func (p *Pusher) check() error {
	if !roundID.MatchString(p.o.RoundID) {
		return fmt.Errorf("lichess: round id %q: want the broadcast round's id (letters and digits, as in its URL)", p.o.RoundID)
	}
	if p.o.Token == "" {
		p.o.Token = os.Getenv(p.o.TokenEnv)
	}
	if p.o.Token == "" {
		return fmt.Errorf("lichess: no API token: set %s to a token that may push to the broadcast", p.o.TokenEnv)
	}
	base, err := url.Parse(p.o.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return fmt.Errorf("lichess: base URL %q: want http(s)://host", p.o.BaseURL)
	}
	p.push = base.JoinPath("api", "broadcast", "round", p.o.RoundID, "push")
	return nil
}

// Run pushes the round's games until ctx is done. It returns an error only
// for options it cannot work with (no token, a bad round id or base URL);
// failed pushes go to OnPush and are retried.
func (p *Pusher) Run(ctx context.Context) error {
	if err := p.check(); err != nil {
		return err
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var notBefore time.Time // no push before: the interval, or a retry's wait
	for {
		sctx, cancel := context.WithCancel(ctx)
		updates := p.h.Subscribe(sctx, "", 1024)
		for _, b := range p.h.Boards() {
			p.games.Load(b.ID) // a bad time control only loses the TimeControl tag
		}
		dirty, resubscribe := true, false
		for !resubscribe {
			if dirty {
				resetTimer(timer, time.Until(notBefore))
			}
			select {
			case <-ctx.Done():
				cancel()
				return nil
			case u, ok := <-updates:
				if !ok {
					resubscribe = true // fell behind: read every board again
					break
				}
				if changed, _ := p.games.Apply(u); changed && p.in(u.Board) {
					dirty = true
				}
			case <-timer.C:
				if !dirty {
					break
				}
				retry, ok := p.pushAll(ctx)
				dirty = !ok
				notBefore = time.Now().Add(max(p.o.Interval, retry))
			}
		}
		cancel()
	}
}

func resetTimer(t *time.Timer, d time.Duration) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	t.Reset(max(d, 0))
}

func (p *Pusher) in(board string) bool {
	if p.o.Round == "" {
		return true
	}
	g, ok := p.games.Game(board)
	return ok && g.Round == p.o.Round
}

// batches splits the round's games, in board order, into requests.
func (p *Pusher) batches() [][]broadcast.Game {
	var all []broadcast.Game
	for _, id := range p.games.Boards() {
		if g, ok := p.games.Game(id); ok && p.in(id) {
			all = append(all, g)
		}
	}
	var out [][]broadcast.Game
	for len(all) > 0 {
		n := min(len(all), p.o.MaxGames)
		out = append(out, all[:n])
		all = all[n:]
	}
	return out
}

// pushAll sends every request whose games changed. It reports false with
// the wait before the next try when a temporary failure stopped it.
func (p *Pusher) pushAll(ctx context.Context) (time.Duration, bool) {
	for i, games := range p.batches() {
		var body bytes.Buffer
		for _, g := range games {
			body.Write(g.PGN)
		}
		sum := sha256.Sum256(body.Bytes())
		if p.sent[i] == sum {
			continue
		}
		r := p.post(ctx, body.Bytes())
		if ctx.Err() != nil {
			return 0, false // shutting down: not a failure to report
		}
		r.Games, r.First = len(games), games[0].Board
		if r.Err != nil && temporary(r) {
			if p.backoff == 0 {
				p.backoff = p.o.MinBackoff
			} else {
				p.backoff = min(2*p.backoff, p.o.MaxBackoff)
			}
			r.Retry = max(p.backoff, r.Retry)
			p.o.OnPush(r)
			return r.Retry, false
		}
		p.backoff = 0
		p.sent[i] = sum // taken, or refused for a reason a retry cannot mend
		p.o.OnPush(r)
	}
	return 0, true
}

// errStatus is a push lichess answered with an error status.
type errStatus struct {
	code int
	body string
}

func (e *errStatus) Error() string {
	return fmt.Sprintf("lichess: push answered %d %s: %s", e.code, http.StatusText(e.code), e.body)
}

func temporary(r Result) bool {
	return r.Status == 0 || r.Status == http.StatusTooManyRequests || r.Status >= 500
}

func (p *Pusher) post(ctx context.Context, body []byte) Result {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.push.String(), bytes.NewReader(body))
	if err != nil {
		return Result{Err: fmt.Errorf("lichess: %w", err)}
	}
	req.Header.Set("Authorization", "Bearer "+p.o.Token)
	req.Header.Set("User-Agent", p.ua)
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Accept", "application/json")
	resp, err := p.o.Client.Do(req)
	if err != nil {
		return Result{Err: fmt.Errorf("lichess: push: %w", err)}
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	r := Result{Status: resp.StatusCode}
	if resp.StatusCode/100 != 2 {
		r.Err = &errStatus{code: resp.StatusCode, body: strings.TrimSpace(string(data[:min(len(data), 300)]))}
		r.Retry = retryAfter(resp.Header.Get("Retry-After"), time.Now())
		return r
	}
	// lichess answers with what it made of each game.
	var answer struct {
		Games []struct {
			Tags  map[string]string `json:"tags"`
			Error string            `json:"error"`
		} `json:"games"`
	}
	if json.Unmarshal(data, &answer) == nil {
		for _, g := range answer.Games {
			if g.Error != "" {
				r.GameErrors = append(r.GameErrors, fmt.Sprintf("%s - %s: %s", g.Tags["White"], g.Tags["Black"], g.Error))
			}
		}
	}
	return r
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		return min(time.Duration(max(s, 0))*time.Second, time.Hour)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), time.Hour)
	}
	return 0
}

// IsRefused reports whether err is lichess refusing a push (an error
// status), as opposed to a network failure.
func IsRefused(err error) bool {
	var e *errStatus
	return errors.As(err, &e)
}
