// Package demo runs arbiterd's whole live path on an emulated board: a DGT
// board and DGT 3000 clock emulator on a pseudo-terminal plays a real game
// in which a flag falls before the time control, and arbiterd reads it
// through a real serial port (go.bug.st/serial), records the capture,
// reconciles moves and presses, and gives the flag verdict, printing what
// happens as it happens. It leaves the capture, the event stream and the
// PGN in a folder.
//
// Where the system has no pseudo-terminals (Windows), the emulator talks to
// arbiterd over an in-process line (emulator.OpenLine) instead, and the demo
// says so: the bytes take the same live path (the capture, the DGT session,
// the pipeline), only the serial port itself is left out.
package demo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/buildinfo"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Options configure a demo run.
type Options struct {
	Out         string  // folder for the capture, events and PGN ("" = a new temporary folder)
	Speed       float64 // emulated time per real second
	Seed        int64
	TimeControl string
	FlagPly     int // the ply at which the player to move thinks longer than its clock has (0 = none)
	Faults      []string
	Oracle      reconcile.MateOracle
	Progress    io.Writer // where the live view goes (nil: nowhere)
	Line        Line      // how the emulated board reaches arbiterd (default: a pty where there are ptys)
	// Printer writes the live view in its language (nil: English); the
	// events' own sentences (an anomaly's detail, a verdict's reason)
	// come as the event stream has them.
	Printer *i18n.Printer
}

// Line is how the emulated board is connected to arbiterd.
type Line string

const (
	// LineAuto is a pseudo-terminal where the system has them (Linux,
	// macOS), the in-process line elsewhere (Windows).
	LineAuto Line = ""
	// LinePTY is a pseudo-terminal, a real serial port arbiterd opens
	// through go.bug.st/serial.
	LinePTY Line = "pty"
	// LineInProcess is an in-process line (emulator.OpenLine) that
	// arbiterd reads and writes as it would a port.
	LineInProcess Line = "in-process"
)

// InProcessDevice is the device Session.OnStart is given when the board is
// on the in-process line.
const InProcessDevice = "an in-process line"

// ParseLine reads a line's name: auto, pty or in-process.
func ParseLine(s string) (Line, error) {
	switch l := Line(s); l {
	case "auto":
		return LineAuto, nil
	case LineAuto, LinePTY, LineInProcess:
		return l, nil
	}
	return "", i18n.Errorf("demo.err.line", s)
}

// Defaults for the demo: the FIDE standard control, a flag in the 19th
// move of the Immortal Game (Black, 18 moves completed of the 40 required).
const (
	DefaultSpeed       = 250
	DefaultTimeControl = "40/5400+30:1800+30"
	DefaultFlagPly     = 38
)

// Result is what a demo run leaves behind.
type Result struct {
	Dir, Capture, Events, PGN string
	Flag                      *reconcile.Event // the flag verdict, if a flag fell
	Completed                 reconcile.Moves
	Stream                    []reconcile.Event // every event, in order
}

// Run plays the demo. It returns when the game has ended (or ctx is done).
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Speed <= 0 {
		o.Speed = DefaultSpeed
	}
	if o.TimeControl == "" {
		o.TimeControl = DefaultTimeControl
	}
	out := o.Progress
	if out == nil {
		out = io.Discard
	}
	tc, err := clockd.ParseTimeControl(o.TimeControl)
	if err != nil {
		return nil, i18n.Errorf("demo.err.tc", err)
	}
	periods, err := emulator.ParseTimeControl(tc.String())
	if err != nil {
		return nil, i18n.Errorf("demo.err.tc", err)
	}
	var script []emulator.Action
	if o.FlagPly > 0 {
		script = append(script, emulator.Action{Kind: emulator.Flag, Ply: o.FlagPly})
	}
	for _, f := range o.Faults {
		a, err := emulator.ParseAction(f)
		if err != nil {
			return nil, i18n.Errorf("demo.err.fault", f, err)
		}
		script = append(script, a)
	}
	view := newView(out, tc)
	p := o.Printer
	if p == nil {
		p = i18n.English
	}
	view.p = p
	meta := buildinfo.Read().Meta(time.Now()) // the capture's provenance
	for k, v := range map[string]string{
		"board": "1", "event": "arbiterd demo", "round": "1",
		"white": "Anderssen, Adolf", "black": "Kieseritzky, Lionel",
		"timecontrol": tc.String(), "clock-white": "auto",
	} {
		meta[k] = v
	}
	return Live(ctx, Session{
		Emulator: emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Seed: o.Seed, Script: script},
		Meta:     meta,
		Dir:      o.Out, Speed: o.Speed, Oracle: o.Oracle, Line: o.Line,
		OnStart: func(device, dir string) { view.start(device, dir, o.Line, o.Speed) },
		OnEvent: view.show,
		OnDone:  view.done,
	})
}

// SettleTime is how long (real time) a session goes on after the players
// stopped the clock at the end of the game: long enough for two keep-alive
// answers from the board, so the last press is settled.
const SettleTime = 2500 * time.Millisecond

// Session is one emulated game played live through a pseudo-terminal.
type Session struct {
	Emulator emulator.Config   // the game and the clock the emulator plays (Speed, Wait and Linger are set by Live)
	Meta     map[string]string // capture meta: board, white, black, timecontrol, clock-white, …
	Dir      string            // folder for the capture, events and PGN ("" = a new temporary folder)
	Speed    float64           // emulated time per real second; the capture records emulated time
	Oracle   reconcile.MateOracle
	// Line is how the emulator reaches arbiterd (default: a pty, or the
	// in-process line where the system has no ptys); OnStart is given the
	// pty's path, or InProcessDevice.
	Line Line
	// StopWhen decides when the game is over for the session (default: an
	// end event, or a flag whose verdict is not "none").
	StopWhen func(reconcile.Event) bool
	OnStart  func(device, dir string)
	OnEvent  func(reconcile.Event)
	OnDone   func(*Result)
}

// Live plays s: the emulator on a pty (or the in-process line), arbiterd's
// live path on the other end, the capture, events and PGN written into the
// folder.
func Live(ctx context.Context, s Session) (*Result, error) {
	tc, err := s.complete()
	if err != nil {
		return nil, err
	}
	// When the players stop the clock after the last move, the game is
	// over for the emulation; arbiterd still needs the next inputs (the
	// board's answers to its keep-alive polls) to settle the last press.
	emu, stopped, err := s.newEmulator()
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	res, err := resultIn(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}

	line, err := openLine(s.Line)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	defer line.device.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	emuDone := make(chan error, 1)
	go func() { emuDone <- emu.Run(ctx, line.device) }()
	defer func() { cancel(); <-emuDone }()

	out, err := openOutputs(res, s, tc)
	if err != nil {
		return nil, err
	}
	defer out.close()

	t0 := time.Now()
	now := func() time.Duration { return time.Duration(float64(time.Since(t0)) * s.Speed) }
	var settled atomic.Bool // the session was cancelled SettleTime after the stop
	emulator.AfterStop(ctx, stopped, SettleTime, func() { settled.Store(true); cancel() })
	if s.OnStart != nil {
		s.OnStart(line.name, res.Dir)
	}
	over := false
	err = live.Run(ctx, live.Config{
		Path: line.path, Open: line.open, Meta: s.Meta, Capture: out.capture, Now: now, Oracle: s.Oracle,
		OnEvent: func(e reconcile.Event) bool {
			out.add(e)
			res.add(e)
			if s.OnEvent != nil {
				s.OnEvent(e)
			}
			if s.StopWhen(e) {
				over = true
			}
			return !over
		},
	})
	if err != nil && !errors.Is(err, live.ErrStopped) && !(errors.Is(err, context.Canceled) && (over || settled.Load())) {
		return res, fmt.Errorf("demo: %w", err)
	}
	if err := out.finish(res.PGN); err != nil {
		return res, err
	}
	if s.OnDone != nil {
		s.OnDone(res)
	}
	return res, nil
}

// complete checks s's line and time control and fills in the defaults of
// its speed and its end; it returns the time control from the meta.
func (s *Session) complete() (clockd.TimeControl, error) {
	if _, err := ParseLine(string(s.Line)); err != nil {
		return clockd.TimeControl{}, err
	}
	if s.Speed <= 0 {
		s.Speed = 1
	}
	if s.StopWhen == nil {
		s.StopWhen = func(e reconcile.Event) bool {
			return e.Type == reconcile.TypeEnd || (e.Type == reconcile.TypeFlag && e.Verdict != reconcile.VerdictNone)
		}
	}
	tc, err := clockd.ParseTimeControl(s.Meta["timecontrol"])
	if err != nil && s.Meta["timecontrol"] != "" {
		return tc, i18n.Errorf("demo.err.tc", err)
	}
	return tc, nil
}

// newEmulator is the emulator of s at its speed, waiting for the host's first
// command and answering until the session ends; the channel it returns is
// closed when the players stop the clock.
func (s *Session) newEmulator() (*emulator.Emulator, <-chan struct{}, error) {
	ecfg := s.Emulator
	ecfg.Speed, ecfg.Wait, ecfg.Linger = s.Speed, true, true
	var stopped <-chan struct{}
	ecfg.Observe, stopped = emulator.StopSignal(ecfg.Observe)
	emu, err := emulator.New(ecfg)
	return emu, stopped, err
}

// resultIn names the files of a result in dir, made if need be ("": a new
// temporary folder).
func resultIn(dir string) (*Result, error) {
	var err error
	if dir == "" {
		if dir, err = os.MkdirTemp("", "arbiterd-demo-"); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Result{Dir: dir, Capture: filepath.Join(dir, "game.capture"),
		Events: filepath.Join(dir, "events.jsonl"), PGN: filepath.Join(dir, "game.pgn")}, nil
}

// add keeps e in the result: the stream, the moves completed and the flag.
func (res *Result) add(e reconcile.Event) {
	res.Stream = append(res.Stream, e)
	switch e.Type {
	case reconcile.TypeComplete:
		res.Completed = e.Moves
	case reconcile.TypeFlag:
		f := e
		res.Flag = &f
	}
}

// outputs are the files a session writes as it goes: the capture, the
// event stream, and the PGN record written at the end.
type outputs struct {
	captureFile, eventsFile *os.File
	capture                 *capture.Writer
	events                  *bufio.Writer
	record                  *pgn.Game
}

// openOutputs creates the capture and the event stream of res, and starts
// the PGN record from s's meta.
func openOutputs(res *Result, s Session, tc clockd.TimeControl) (_ *outputs, err error) {
	o := &outputs{record: pgn.New(pgn.Tags{Event: s.Meta["event"], Round: s.Meta["round"], Board: s.Meta["board"],
		White: s.Meta["white"], Black: s.Meta["black"], TimeControl: tc, StartFEN: s.Meta["start-fen"],
		Site: s.Meta[capture.MetaSite], Date: capture.Date(s.Meta[capture.MetaStarted])})}
	defer func() {
		if err != nil {
			o.close()
		}
	}()
	if o.captureFile, err = os.Create(res.Capture); err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if o.capture, err = capture.NewWriter(o.captureFile); err != nil {
		return nil, err
	}
	// The emulation may run faster than real time; the capture records
	// the emulated (game) time so that it reads like a real game, and says so.
	if err := o.capture.Comment(fmt.Sprintf(" emulated board; times are game time, played at %g× real time", s.Speed)); err != nil {
		return nil, err
	}
	if o.eventsFile, err = os.Create(res.Events); err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	o.events = bufio.NewWriter(o.eventsFile)
	return o, nil
}

// add writes e to the event stream and the PGN record.
func (o *outputs) add(e reconcile.Event) {
	o.events.Write(reconcile.Marshal(e))
	o.events.WriteByte('\n')
	o.record.Add(e)
}

// finish flushes the event stream and writes the PGN record to path.
func (o *outputs) finish(path string) error {
	if err := o.events.Flush(); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	var pb strings.Builder
	if err := o.record.Write(&pb); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(pb.String()), 0o644); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	return nil
}

// close flushes the event stream and closes the files that are open (a
// nil *os.File's Close does nothing).
func (o *outputs) close() {
	if o.events != nil {
		o.events.Flush()
	}
	o.eventsFile.Close()
	o.captureFile.Close()
}

// boardLine is the emulator's end of the line and how arbiterd opens the
// other end.
type boardLine struct {
	device io.ReadWriteCloser // the emulator's end; closing it ends the line
	path   string             // the port arbiterd opens (a pty's slave)
	name   string             // what OnStart is told
	// open, when set, opens arbiterd's end instead of the port at path.
	open func(context.Context) (io.ReadWriteCloser, error)
}

// openLine opens the line the session asks for: a pty, whose slave
// arbiterd opens as a serial port, or the in-process line, whose host end
// arbiterd is given as its port. The default is a pty, and the in-process
// line where the system has none.
func openLine(l Line) (*boardLine, error) {
	if l != LineInProcess {
		master, slave, err := emulator.OpenPTY()
		if err == nil {
			return &boardLine{device: master, path: slave, name: slave}, nil
		}
		if l == LinePTY || !errors.Is(err, emulator.ErrNoPTY) {
			return nil, err
		}
	}
	dev, host := emulator.OpenLine()
	return &boardLine{device: dev, path: "in-process", name: InProcessDevice,
		open: func(context.Context) (io.ReadWriteCloser, error) { return host, nil }}, nil
}

// view prints the game as it happens: one line per completed move, the
// anomalies, and the flag verdict, in its printer's language.
type view struct {
	w  io.Writer
	tc clockd.TimeControl
	p  *i18n.Printer
}

func newView(w io.Writer, tc clockd.TimeControl) *view { return &view{w: w, tc: tc, p: i18n.English} }

// line prints the message of code with args and a new line.
func (v *view) line(code string, args ...any) {
	io.WriteString(v.w, v.p.Sprintf(code, args...)+"\n")
}

// start says what plays, on which line, how fast, and where the files go.
func (v *view) start(device, dir string, line Line, speed float64) {
	if v == nil {
		return
	}
	on := device
	if device == InProcessDevice {
		on = v.p.Sprintf("demo.in-process")
	}
	v.line("demo.start", on, v.tc.String())
	if device == InProcessDevice {
		if line == LineInProcess {
			v.line("demo.in-process.asked")
		} else {
			v.line("demo.in-process.no-pty", runtime.GOOS)
		}
		v.line("demo.in-process.path")
	}
	v.line("demo.speed", speed, dir)
	io.WriteString(v.w, "\n")
}

// done lists the files the demo left.
func (v *view) done(res *Result) {
	if v == nil {
		return
	}
	io.WriteString(v.w, "\n")
	v.line("demo.done", res.Dir, filepath.Base(res.Capture), shellQuote(runtime.GOOS, res.Capture), filepath.Base(res.Events), filepath.Base(res.PGN))
}

func (v *view) count(s clockd.Side, m reconcile.Moves) string {
	n := m.Of(s)
	req := v.tc.Required(v.tc.PeriodOf(n))
	if req == 0 {
		return fmt.Sprintf("%d", n)
	}
	return fmt.Sprintf("%d/%d", n, req)
}

func (v *view) show(e reconcile.Event) {
	if v == nil {
		return
	}
	p := v.p
	switch e.Type {
	case reconcile.TypePosition:
		v.line("demo.board-ready", p.Word("orientation."+e.Orientation, e.Orientation))
	case reconcile.TypeComplete:
		num := (e.Ply + 1) / 2
		mv := fmt.Sprintf("%d. %s", num, e.SAN)
		if e.Side == clockd.Black {
			mv = fmt.Sprintf("%d... %s", num, e.SAN)
		}
		v.line("demo.complete", mv, p.Word("by."+string(e.By), string(e.By)),
			v.count(clockd.White, e.Moves), v.count(clockd.Black, e.Moves), pgn.Clock(e.Clock.White), pgn.Clock(e.Clock.Black))
	case reconcile.TypeAnomaly:
		v.line("demo.anomaly", e.Kind, e.Article, evtext.Sentence(p, e))
	case reconcile.TypePeriod:
		v.line("demo.period", p.Word("side."+e.Side.String()+".label", e.Side.String()), e.Period, pgn.Clock(e.Added))
	case reconcile.TypeFlag:
		req := p.Sprintf("demo.all-moves")
		if e.MovesRequired > 0 {
			req = fmt.Sprintf("%d", e.MovesRequired)
		}
		io.WriteString(v.w, "\n")
		v.line("demo.flag", p.Word("side."+e.Side.String()+".lower", e.Side.String()), e.Period)
		v.line("demo.flag.moves", e.MovesCompleted, req, p.Word(fmt.Sprintf("bool.%v", e.ControlReached), fmt.Sprint(e.ControlReached)))
		mate := p.Word("mate."+string(e.OpponentCanMate), string(e.OpponentCanMate))
		if len(e.MateLine) > 0 {
			mate += " (" + strings.Join(e.MateLine, " ") + ")"
		}
		v.line("demo.flag.can-mate", mate)
		v.line("demo.flag.verdict", p.Word("verdict."+string(e.Verdict), strings.ToUpper(string(e.Verdict))), e.Article)
		io.WriteString(v.w, "        "+evtext.Sentence(p, e)+"\n")
	case reconcile.TypeEnd:
		v.line("demo.end", e.Result, p.Word("event.end."+string(e.Reason), string(e.Reason)), e.Article)
	case reconcile.TypeSession:
		if e.State == reconcile.StateDisconnected || e.State == reconcile.StateConnected {
			v.line("demo.session", p.Word("state."+string(e.State), string(e.State)))
		}
	}
}
