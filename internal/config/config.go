package config

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/pairings"
	"github.com/arbiterd/arbiterd/internal/textin"
	"github.com/arbiterd/arbiterd/rules"
)

// Defaults of the settings that may be left out.
const (
	DefaultListen    = "127.0.0.1:8080"
	DefaultData      = "arbiterd-data"
	DefaultRound     = "1"
	DefaultLogFormat = "text"
	DefaultLogLevel  = "info"
	DefaultDriver    = "dgt"
	DefaultClockSide = "auto"
)

// Config is the daemon's configuration.
type Config struct {
	Data   string `yaml:"data" toml:"data"`     // the data directory (the journal)
	Listen string `yaml:"listen" toml:"listen"` // HTTP address, host:port
	Event  string `yaml:"event" toml:"event"`   // the event's name (PGN Event)
	Round  string `yaml:"round" toml:"round"`   // the round (PGN Round "r.b", directory round-R)
	// Pairings is the pairing program's file the rounds' pairs come from
	// (a pairing PGN, a TRF-16 or a CSV list; docs/pairings.md): each
	// board's players are those of its number in the round. Without a
	// round, the first round with results still blank.
	Pairings string `yaml:"pairings" toml:"pairings"`
	// Lang is the language of the text the daemon shows people ("en",
	// "es"; docs/i18n.md), or empty for each reader's own. Checked here;
	// the dashboard and the boards' PGN comments take it up.
	Lang string `yaml:"lang" toml:"lang"`
	// DefaultTime is the round's default time (6.7.1), as a duration such
	// as "30m" or "1h" ("" or "0": not checked): once it has passed since
	// a board's clock started, a player whose first move is not made is
	// named for the arbiter to check presence.
	DefaultTime string `yaml:"default_time" toml:"default_time"`
	LogFormat   string `yaml:"log_format" toml:"log_format"` // "text" or "json"
	LogLevel    string `yaml:"log_level" toml:"log_level"`   // "debug", "info", "warn", "error"
	Site        string `yaml:"site" toml:"site"`             // PGN Site of the broadcast feeds
	// Broadcast is the directory of the broadcast round folders
	// (default DATA/broadcast); "off" turns them off.
	Broadcast string     `yaml:"broadcast" toml:"broadcast"`
	Lichess   *Lichess   `yaml:"lichess" toml:"lichess"`     // push to a lichess broadcast round (optional)
	LiveChess *LiveChess `yaml:"livechess" toml:"livechess"` // the LiveChess-compatible listener (optional)
	NATS      *NATS      `yaml:"nats" toml:"nats"`           // publish to NATS JetStream for a hall (optional; docs/scale-out.md)
	Access    *Access    `yaml:"access" toml:"access"`       // arbiters' logins, spectators, TLS for listen (optional; access.go)
	Boards    []Board    `yaml:"boards" toml:"boards"`

	pairs *pairings.Round // the round's pairings, read by validate from Pairings
}

// Pairs returns the round's pairings read from the pairings file (nil
// without one, or before the configuration was validated).
func (c *Config) Pairs() *pairings.Round { return c.pairs }

// Pair returns the pair on board number n of the round's pairings.
func (c *Config) Pair(n int) (pairings.Board, bool) {
	if c.pairs == nil {
		return pairings.Board{}, false
	}
	return c.pairs.Board(n)
}

// WithRound returns a copy of the configuration for round r of the
// pairings file, whose pairs are given: the next round loaded while the
// daemon runs.
func (c *Config) WithRound(r *pairings.Round) *Config {
	n := *c
	n.Boards = slices.Clone(c.Boards)
	n.Round, n.pairs = strconv.Itoa(max(r.Number, 1)), r
	return &n
}

// Lichess is the optional push of the round's games to a lichess
// broadcast round. The token is read from the environment, never from the
// file.
type Lichess struct {
	RoundID  string `yaml:"round_id" toml:"round_id"`   // the lichess broadcast round's id
	TokenEnv string `yaml:"token_env" toml:"token_env"` // environment variable holding the token (default LICHESS_TOKEN)
	BaseURL  string `yaml:"base_url" toml:"base_url"`   // default https://lichess.org
}

// Board is one board the daemon serves.
type Board struct {
	Number      int    `yaml:"number" toml:"number"`               // the board number in the round (PGN Round "r.b")
	Port        string `yaml:"port" toml:"port" arbiterd:"device"` // the board's serial port
	Driver      string `yaml:"driver" toml:"driver"`               // the board's protocol: "dgt"
	Clock       *Clock `yaml:"clock" toml:"clock"`                 // a separate clock, when the clock is not read through the board
	White       string `yaml:"white" toml:"white"`                 // White's name
	Black       string `yaml:"black" toml:"black"`                 // Black's name
	TimeControl string `yaml:"timecontrol" toml:"timecontrol"`     // as clockd.ParseTimeControl reads it
	ClockWhite  string `yaml:"clock_white" toml:"clock_white"`     // White's face of the clock: "left", "right" or "auto"
	StartFEN    string `yaml:"start_fen" toml:"start_fen"`         // the start position (default: the standard one)
}

// Clock is a clock on its own serial port.
type Clock struct {
	Port   string `yaml:"port" toml:"port" arbiterd:"device"`
	Driver string `yaml:"driver" toml:"driver"` // "lineclock"
}

// DefaultTimeDuration is the round's default time (0: not checked).
func (c *Config) DefaultTimeDuration() (time.Duration, error) {
	if c.DefaultTime == "" || c.DefaultTime == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(c.DefaultTime)
	if err != nil || d < 0 {
		return 0, i18n.Errorf("config.default-time", c.DefaultTime)
	}
	return d, nil
}

// ID is the board's identifier in the daemon (its number, as text).
func (b Board) ID() string { return strconv.Itoa(b.Number) }

// Error is one invalid setting.
type Error struct {
	File  string // the configuration file ("" when not read from a file)
	Line  int    // 1-based, 0 when the format does not say
	Field string // the setting's path, e.g. boards[2].timecontrol
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// In is the error in p's language: the file, the line and the setting as
// they are, what is wrong in p's language when it is a sentence of the
// catalogs (what another layer said, such as the system's file errors,
// stays as it came).
func (e *Error) In(p *i18n.Printer) string {
	en := e.Err.Error()
	return strings.TrimSuffix(e.Error(), en) + p.Err(e.Err).Error()
}

// Load reads and validates the configuration file at path; its format
// follows the extension.
func Load(path string) (*Config, error) { return LoadFile(path, Parse) }

// LoadFile reads the file at path and hands it to parse with its name:
// Load with Parse, and another command's configuration (the hall's) with
// its own parser.
func LoadFile[T any](path string, parse func(name string, data []byte) (T, error)) (T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("config: %w", err)
	}
	return parse(path, data)
}

// Parse reads and validates a configuration; name gives the format by its
// extension (.yaml, .yml or .toml) and is named in errors.
func Parse(name string, data []byte) (*Config, error) { return parse(name, data, runtime.GOOS) }

// parse is Parse for the system goos (whose ports are checked).
func parse(name string, data []byte, goos string) (*Config, error) {
	var (
		c     Config
		lines func(field string) int
		err   error
	)
	if lines, err = Decode(name, data, &c); err != nil {
		return nil, err
	}
	c.defaults()
	if errs := c.validate(goos); len(errs) > 0 {
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

// Decode reads a configuration file's settings into v (a pointer to a
// struct with yaml and toml tags); name's extension (.yaml, .yml or .toml)
// gives the format. Every key and the kind of every value are checked
// against v's fields first, so each mistake is named by its setting and
// line. The function returned gives a setting path's line, for the
// errors of later checks.
func Decode(name string, data []byte, v any) (func(string) int, error) {
	// A file saved by a Windows editor (a byte-order mark, UTF-16,
	// Windows-1252) reads as any other.
	data, _, err := textin.Bytes(data)
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".yaml" || ext == ".yml" || ext == ".toml" {
		if err := checkBackslashes(name, data, ext == ".toml"); err != nil {
			return nil, err
		}
	}
	switch ext {
	case ".yaml", ".yml":
		return parseYAML(name, data, v)
	case ".toml":
		return parseTOML(name, data, v)
	default:
		return nil, &Error{File: name, Err: i18n.Errorf("config.format", ext)}
	}
}

func parseYAML(name string, data []byte, c any) (func(string) int, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(name, err)
	}
	if len(root.Content) == 0 {
		return nil, &Error{File: name, Err: i18n.Errorf("config.empty")}
	}
	// Keys and the kinds of values are checked first, so each mistake is
	// named by its setting and line (the decoder's own messages name Go
	// types).
	if err := checkTree(name, reflect.TypeOf(c).Elem(), fromYAML(&root), nil); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // a typo is an error, never a silent default
	if err := dec.Decode(c); err != nil {
		return nil, yamlError(name, err)
	}
	return func(field string) int { return yamlLine(&root, field) }, nil
}

// yamlLinePrefix is how the YAML decoder starts a message about one line.
var yamlLinePrefix = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlError turns a YAML decoder error into Errors with the file and line.
func yamlError(name string, err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	errs := make([]error, len(msgs))
	for i, m := range msgs {
		e := &Error{File: name}
		if sm := yamlLinePrefix.FindStringSubmatch(m); sm != nil {
			e.Line, _ = strconv.Atoi(sm[1])
			m = m[len(sm[0]):]
		}
		e.Err = errors.New("YAML: " + strings.TrimPrefix(m, "yaml: "))
		errs[i] = e
	}
	return errors.Join(errs...)
}

// checkTree checks a file's tree against Config: unknown keys and values
// of the wrong kind, all at once.
func checkTree(name string, t reflect.Type, root *node, lines func(string) int) error {
	var s schema
	s.check("", t, root, false)
	if len(s.errs) == 0 {
		return nil
	}
	all := make([]error, len(s.errs))
	for i, e := range s.errs {
		e.File = name
		if e.Line == 0 && lines != nil {
			e.Line = lines(e.Field)
		}
		all[i] = e
	}
	return errors.Join(all...)
}

var pathPart = regexp.MustCompile(`([a-z_]+)|\[(\d+)\]`)

// yamlLine finds the line of a setting path in a YAML document: the line of
// its value, or of its nearest enclosing setting.
func yamlLine(root *yaml.Node, field string) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, m := range pathPart.FindAllStringSubmatch(field, -1) {
		var next *yaml.Node
		switch {
		case m[1] != "" && n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == m[1] {
					next = n.Content[i+1]
				}
			}
		case m[2] != "" && n.Kind == yaml.SequenceNode:
			if i, _ := strconv.Atoi(m[2]); i < len(n.Content) {
				next = n.Content[i]
			}
		}
		if next == nil {
			break
		}
		n, line = next, next.Line
	}
	return line
}

func parseTOML(name string, data []byte, c any) (func(string) int, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, tomlError(name, err)
	}
	pos := tomlLines(string(data))
	lines := func(field string) int { return tomlLine(pos, field) }
	if err := checkTree(name, reflect.TypeOf(c).Elem(), fromTOML(raw, "", pos), lines); err != nil {
		return nil, err
	}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return nil, tomlError(name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		errs := make([]error, len(und))
		for i, k := range und {
			errs[i] = &Error{File: name, Line: lines(k.String()), Field: k.String(), Err: i18n.Errorf("config.unknown")}
		}
		return nil, errors.Join(errs...)
	}
	return lines, nil
}

// tomlError gives a TOML decoder error its file and line.
func tomlError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: name, Line: pe.Position.Line, Err: fmt.Errorf("TOML: %s", pe.Message)}
	}
	return &Error{File: name, Err: fmt.Errorf("TOML: %w", err)}
}

func (c *Config) defaults() {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.Data == "" {
		c.Data = DefaultData
	}
	if c.Round == "" && c.Pairings == "" {
		c.Round = DefaultRound // with pairings: the file's next round (checkPairings)
	}
	if c.LogFormat == "" {
		c.LogFormat = DefaultLogFormat
	}
	if c.LogLevel == "" {
		c.LogLevel = DefaultLogLevel
	}
	for i := range c.Boards {
		b := &c.Boards[i]
		if b.Driver == "" {
			b.Driver = DefaultDriver
		}
		if b.ClockWhite == "" {
			b.ClockWhite = DefaultClockSide
		}
	}
}

var lichessID = regexp.MustCompile(`^[A-Za-z0-9]{1,32}$`)

var roundName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Validate checks a configuration built in code (Load and Parse validate
// what they read); defaults are filled in first.
func (c *Config) Validate() error {
	c.defaults()
	errs := c.validate(runtime.GOOS)
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return errors.Join(all...)
}

func (c *Config) validate(goos string) []*Error {
	var errs []*Error
	// bad notes a mistake: the message of code with a, said in the
	// reader's language (its English is the sentence as it always was).
	bad := func(field, code string, a ...any) {
		errs = append(errs, &Error{Field: field, Err: i18n.Errorf(code, a...)})
	}
	if _, port, err := net.SplitHostPort(c.Listen); err != nil {
		bad("listen", "config.listen", c.Listen, err)
	} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		bad("listen", "config.listen.port", port)
	}
	c.checkPairings(bad)
	if !roundName.MatchString(c.Round) {
		bad("round", "config.round", c.Round)
	}
	if _, err := c.DefaultTimeDuration(); err != nil {
		bad("default_time", "config.as-is", err)
	}
	CheckLog(c.LogFormat, c.LogLevel, bad)
	if c.Lang != "" {
		if _, err := i18n.Parse("lang:", c.Lang); err != nil {
			bad("lang", "config.lang", c.Lang, i18n.Names())
		}
	}
	if strings.ContainsAny(c.Event, "\n\r") {
		bad("event", "config.event")
	}
	if l := c.Lichess; l != nil {
		if !lichessID.MatchString(l.RoundID) {
			bad("lichess.round_id", "config.lichess.round-id", l.RoundID)
		}
		if l.BaseURL != "" {
			if u, err := url.Parse(l.BaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				bad("lichess.base_url", "config.lichess.base-url", l.BaseURL)
			}
		}
	}
	errs = append(errs, c.LiveChess.validate()...)
	c.validateBoards(goos, bad)
	errs = append(errs, c.NATS.validate()...)
	return errs
}

// checkPairings reads the round's pairings from the pairings file: the
// round given, or the first round with results still blank (which then
// is the round).
func (c *Config) checkPairings(bad func(field, format string, a ...any)) {
	if c.Pairings == "" {
		return
	}
	n := 0
	if c.Round != "" {
		var err error
		if n, err = strconv.Atoi(c.Round); err != nil || n < 1 {
			bad("round", "config.pairings.round", c.Round)
			return
		}
	}
	if c.pairs != nil && (n == 0 || c.pairs.Number == n || c.pairs.Number == 0) {
		return // read already (Validate again)
	}
	r, err := pairings.ReadFile(c.Pairings, n)
	if err != nil {
		bad("pairings", "config.as-is", err)
		if c.Round == "" {
			c.Round = DefaultRound
		}
		return
	}
	c.pairs = r
	if c.Round == "" {
		c.Round = strconv.Itoa(max(r.Number, 1))
	}
}

// validateBoards checks the boards: unique numbers, ports that can be
// ports on the system goos, used once (board and clock alike), the
// drivers, and each board's game (checkGame).
func (c *Config) validateBoards(goos string, bad func(field, format string, a ...any)) {
	if len(c.Boards) == 0 {
		bad("boards", "config.boards.none")
	}
	numbers := map[int]int{}
	ports := map[string]string{}
	usePort := func(field, port string) {
		if port == "" {
			return
		}
		key := portKey(port)
		if prev, ok := ports[key]; ok {
			bad(field, "config.port.used", port, prev)
			return
		}
		ports[key] = field
	}
	for i, b := range c.Boards {
		f := fmt.Sprintf("boards[%d]", i)
		if b.Number < 1 {
			bad(f+".number", "config.board.number", b.Number)
		} else if j, dup := numbers[b.Number]; dup {
			bad(f+".number", "config.board.twice", b.Number, j)
		} else {
			numbers[b.Number] = i
		}
		if b.Port == "" {
			bad(f+".port", "config.board.port.missing")
		} else if strings.ContainsAny(b.Port, " \t\n") {
			bad(f+".port", "config.port.spaces", b.Port)
		} else if p := portProblem(goos, b.Port); p != nil {
			bad(f+".port", "config.as-is", p)
		}
		usePort(f+".port", b.Port)
		if b.Driver != "dgt" {
			bad(f+".driver", "config.board.driver", b.Driver)
		}
		if b.Clock != nil {
			if b.Clock.Port == "" {
				bad(f+".clock.port", "config.clock.port.missing")
			} else if p := portProblem(goos, b.Clock.Port); p != nil {
				bad(f+".clock.port", "config.as-is", p)
			}
			usePort(f+".clock.port", b.Clock.Port)
			if b.Clock.Driver != "lineclock" {
				bad(f+".clock.driver", "config.clock.driver", b.Clock.Driver)
			}
		}
		b.checkGame(f, bad)
	}
}

// checkGame checks what board b (field f) says of its game: the players'
// names, the time control, the clock's white face and the start position.
func (b Board) checkGame(f string, bad func(field, format string, a ...any)) {
	for _, s := range []struct{ key, v string }{{"white", b.White}, {"black", b.Black}} {
		if strings.ContainsAny(s.v, "\n\r") {
			bad(f+"."+s.key, "config.player")
		}
	}
	if b.TimeControl == "" {
		bad(f+".timecontrol", "config.timecontrol.missing")
	} else if _, err := clockd.ParseTimeControl(b.TimeControl); err != nil {
		bad(f+".timecontrol", "config.as-is", err)
	}
	if _, err := clockd.ParseWhiteFace(b.ClockWhite); err != nil {
		bad(f+".clock_white", "config.as-is", err)
	}
	if b.StartFEN != "" {
		if _, err := rules.NewGame(b.StartFEN); err != nil {
			bad(f+".start_fen", "config.as-is", err)
		}
	}
}

// comPort is a Windows serial port name, with or without the device
// namespace prefix: COM3, \\.\COM12.
var comPort = regexp.MustCompile(`(?i)^(?:\\\\\.\\)?(COM[0-9]+)$`)

// portKey is what makes two port names the same port: Windows COM names
// are the same whatever their case and with or without \\.\.
func portKey(port string) string {
	if m := comPort.FindStringSubmatch(port); m != nil {
		return strings.ToUpper(m[1])
	}
	return port
}

// CheckLog checks the log settings (log_format, log_level) of a daemon's or
// a hall's configuration, naming each fault to bad.
func CheckLog(format, level string, bad func(field, format string, a ...any)) {
	switch format {
	case "text", "json":
	default:
		bad("log_format", "config.log-format", format)
	}
	switch level {
	case "debug", "info", "warn", "error":
	default:
		bad("log_level", "config.log-level", level)
	}
}
