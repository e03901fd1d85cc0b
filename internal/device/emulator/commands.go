package emulator

import "time"

// cmdParser splits the host's byte stream into single-byte commands and
// clock frames (2b SIZE 03 CMD … 00, SIZE counting the bytes after itself).
type cmdParser struct {
	inClock bool
	size    int // -1 until the size byte arrived
	frame   []byte
}

// maxClockFrame bounds SIZE; longer frames are refused.
const maxClockFrame = 64

// feed takes one byte; it returns a complete command: a single byte (frame
// nil) or a clock frame's bytes after SIZE (frame non-nil, cmd 0x2b).
func (p *cmdParser) feed(b byte) (cmd byte, frame []byte, ok bool) {
	if !p.inClock {
		if b == cmdClockMessage {
			p.inClock, p.size, p.frame = true, -1, p.frame[:0]
			return 0, nil, false
		}
		return b, nil, true
	}
	if p.size < 0 {
		if b < 3 || b > maxClockFrame {
			p.inClock = false // not a frame we understand: drop it
			return 0, nil, false
		}
		p.size = int(b)
		return 0, nil, false
	}
	p.frame = append(p.frame, b)
	if len(p.frame) < p.size {
		return 0, nil, false
	}
	p.inClock = false
	return cmdClockMessage, append([]byte(nil), p.frame...), true
}

// command handles the host's bytes at at.
func (s *sim) command(data []byte, at time.Duration) {
	if s.unplugged {
		return
	}
	for _, b := range data {
		cmd, frame, ok := s.cmd.feed(b)
		if !ok {
			continue
		}
		if frame != nil {
			s.clockCommand(frame, at)
			continue
		}
		s.simpleCommand(cmd, at)
	}
}

// modeCommands are the single-byte commands that put the board in a mode.
var modeCommands = map[byte]UpdateMode{
	cmdReset:       ModeIdle,
	cmdUpdate:      ModeUpdate,
	cmdUpdateBoard: ModeUpdateBoard,
	cmdUpdateNice:  ModeUpdateNice,
}

// fixedAnswers are the single-byte commands the board answers with a
// message that does not depend on the game.
var fixedAnswers = map[byte]func() []byte{
	cmdSerial:     serialMessage,
	cmdLongSerial: longSerialMessage,
	cmdBusAddress: busAddressMessage,
	cmdTrademark:  trademarkMessage,
	cmdVersion:    versionMessage,
	cmdEEMoves:    eeMovesMessage,
	cmdBattery:    batteryMessage,
}

func (s *sim) simpleCommand(cmd byte, at time.Duration) {
	if mode, ok := modeCommands[cmd]; ok {
		s.mode = mode
		return
	}
	if answer, ok := fixedAnswers[cmd]; ok {
		s.out = append(s.out, answer())
		return
	}
	switch cmd {
	case cmdSendClock:
		if s.clockOff {
			s.out = append(s.out, bwtime(Display{NoClock: true}))
			return
		}
		s.out = append(s.out, bwtime(s.clock.display(at)))
	case cmdSendBoard:
		s.out = append(s.out, boardDump(&s.reported))
	}
	// Anything else is ignored, as the board does.
}

// clockCommand handles a clock frame (the bytes after SIZE: 03 CMD … 00)
// and acknowledges it; malformed frames get no acknowledgement.
func (s *sim) clockCommand(f []byte, at time.Duration) {
	if s.clockOff {
		return // no clock to forward it to
	}
	if len(f) < 3 || f[0] != clockStartMessage || f[len(f)-1] != clockEndMessage {
		return
	}
	cmd, data := f[1], f[2:len(f)-1]
	ack := [4]byte{clockAckMarker, cmd, 0, 0}
	switch cmd {
	case clockCmdSetNRun:
		// lh lm ls rh rm rs side: binary hours/minutes/seconds; side bit 0
		// runs the left clock, bit 1 the right one, neither stops it.
		if len(data) != 7 {
			return
		}
		for _, v := range [][2]byte{{data[0], 9}, {data[1], 59}, {data[2], 59}, {data[3], 9}, {data[4], 59}, {data[5], 59}} {
			if v[0] > v[1] {
				return
			}
		}
		hms := func(h, m, sec byte) time.Duration {
			return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
		}
		run := noPlayer
		right := s.clock.rightPlayer()
		switch {
		case data[6]&0x01 != 0:
			run = right.Other()
		case data[6]&0x02 != 0:
			run = right
		}
		s.clock.set(hms(data[0], data[1], data[2]), hms(data[3], data[4], data[5]), run, at)
		s.out = append(s.out, clockAck(ack, s.clock.display(at).status()))
		s.clockChanged(at, true)
		return
	case clockCmdVersion:
		ack[2], ack[3] = emuClockMajor, emuClockMinor
	case clockCmdButton:
		// No button is held.
	case clockCmdDisplay, clockCmdIcons, clockCmdEnd, clockCmdBeep, clockCmdASCII:
	default:
		return
	}
	s.out = append(s.out, clockAck(ack, s.clock.display(at).status()))
}
