package reconcile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/sentence"
)

// Text is a sentence of the event stream as its code and its arguments
// (the `text` of an anomaly, a flag, an adjust, a pause, a claim or a
// decision; docs/events.md). An argument is an int, a string taken as it
// is (a time, a move, a result, a position) or another Text: a word or a
// clause that changes with the language (a side, a period's name, a mate
// answer). The English rendering (String) is the event's `detail` or
// `reason`; the views render the code in their reader's language.
type Text struct {
	Code string
	Args []any
}

// IsZero reports whether t has no code.
func (t Text) IsZero() bool { return t.Code == "" }

// String is t in English: the event's `detail` or `reason`.
func (t Text) String() string { return englishFormats.Render(t.Code, t.Args) }

// SentenceCode is t's code.
func (t Text) SentenceCode() string { return t.Code }

// EnglishFormat is the English format of code (a format of package fmt,
// its arguments the Text's), and whether the code is one of the stream's.
func EnglishFormat(code string) (string, bool) { return englishFormats.Format(code) }

// TextCodes lists the codes of the stream's sentences and words, sorted.
func TextCodes() []string { return englishFormats.Codes() }

// say is the sentence of code with args; an error or another Stringer is
// kept as its text.
func say(code string, args ...any) Text {
	for i, x := range args {
		switch v := x.(type) {
		case Text, string, int:
		case error:
			args[i] = v.Error()
		case fmt.Stringer:
			args[i] = v.String()
		default:
			args[i] = fmt.Sprint(v)
		}
	}
	return Text{Code: code, Args: args}
}

// setSentence writes the English of e's Text as its detail (anomaly) or
// reason (the others).
func (e *Event) setSentence() {
	if e.Text.IsZero() {
		return
	}
	if e.Type == TypeAnomaly {
		e.Detail = e.Text.String()
	} else {
		e.Reason = Reason(e.Text.String())
	}
}

// The words the sentences are made of.

func sideWord(s clockd.Side) Text {
	if s == clockd.Black {
		return Text{Code: TextBlack}
	}
	return Text{Code: TextWhite}
}

func possWord(s clockd.Side) Text {
	if s == clockd.Black {
		return Text{Code: TextBlackPossessive}
	}
	return Text{Code: TextWhitePossessive}
}

// periodWord names a period as the sentences do: "first" … "fourth",
// then "5th" (periodName).
func periodWord(p int) Text {
	if p >= 1 && p <= 4 {
		return Text{Code: TextPeriodNames[p-1]}
	}
	return say(suffixed("event.period.", p), p)
}

// nthWord counts illegal moves as the sentences do: "first" …
// "fourth", then "5th". (In Spanish a period and a move differ in gender:
// the codes differ.)
func nthWord(n int) Text {
	if n >= 1 && n <= 4 {
		return Text{Code: TextNthNames[n-1]}
	}
	return ordinalWord(n)
}

// NthWord is the word of nthWord, for views that count illegal moves
// again (a count the stream made of presses that were no illegal moves).
func NthWord(n int) Text { return nthWord(n) }

// ordinalWord is a move's ordinal: "1st", "22nd", "13th" (ordinal).
func ordinalWord(n int) Text { return say(suffixed("event.ordinal.", n), n) }

// suffixed is prefix and n's English ordinal suffix: the code of an
// ordinal.
func suffixed(prefix string, n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		return prefix + "st"
	case n%10 == 2:
		return prefix + "nd"
	case n%10 == 3:
		return prefix + "rd"
	}
	return prefix + "th"
}

// durationWords is a time span as duration words it: "30 minutes", "1
// minute", "90 seconds", else seconds ("2.5 s", the same in every
// language).
func durationWords(d time.Duration) any {
	switch {
	case d%time.Minute == 0 && d != 0:
		if d == time.Minute {
			return Text{Code: TextMinute}
		}
		return say(TextMinutes, int(d/time.Minute))
	case d%time.Second == 0:
		return say(TextSeconds, int(d/time.Second))
	}
	return spanWord(d)
}

// spanWord is a span of time as seconds writes it ("18.395 s"), its
// whole seconds and its decimals apart, for a language that writes a
// decimal comma; a negative span stays a string.
func spanWord(d time.Duration) any {
	s := seconds(d)
	whole, frac, ok := strings.Cut(strings.TrimSuffix(s, " s"), ".")
	n, err := strconv.Atoi(whole)
	if d < 0 || !ok || err != nil {
		return s
	}
	return say(TextSpan, n, frac)
}

// endWord is the reason a game ended, as a word of the language when the
// catalogs know it.
func endWord(reason string) any {
	code := "event.end." + reason
	if _, ok := englishFormats[code]; ok {
		return Text{Code: code}
	}
	return reason
}

// mateText is the 6.9 clause for the opponent's answer (mateWords),
// without its full stop; cond is "" or a Text (TextMateIfNotReached).
func mateText(opp clockd.Side, ans Mate, cond any) Text {
	loser := sideWord(opp.Other())
	switch ans {
	case MateYes:
		return say(TextMateYes, sideWord(opp), loser, cond)
	case MateNo:
		return say(TextMateNo, sideWord(opp), cond)
	}
	return say(TextMateUnknown, sideWord(opp), loser, cond, sideWord(opp))
}

// The codes of the stream's words.
const (
	TextWhite           = "event.side.white"
	TextBlack           = "event.side.black"
	TextWhitePossessive = "event.side.white.possessive"
	TextBlackPossessive = "event.side.black.possessive"
	TextMinute          = "event.duration.minute"
	TextMinutes         = "event.duration.minutes"
	TextSeconds         = "event.duration.seconds"
	TextSpan            = "event.duration.span" // seconds and decimals: "18.395 s"
	TextNone            = "event.none"
	TextBadAction       = "event.bad-action"
	TextWhen            = "event.when"
	TextWhenBeforeFirst = "event.when.before-first"
	TextWhenAfter       = "event.when.after"
)

// TextPeriodNames are the codes of the names of periods 1 to 4 (later
// ones are ordinals: event.period.th and the like), TextNthNames those of
// the counts of illegal moves.
var (
	TextPeriodNames = [4]string{"event.period.first", "event.period.second", "event.period.third", "event.period.fourth"}
	TextNthNames    = [4]string{"event.nth.first", "event.nth.second", "event.nth.third", "event.nth.fourth"}
)

// The codes of the sentences and clauses, by the event they are in.
const (
	// flag
	TextFlagNotPressed     = "event.flag.not-pressed" // anomaly move-without-press
	TextFlagJudgeError     = "event.flag.judge-error"
	TextFlagAfterEnd       = "event.flag.after-end"
	TextFlagNotFollowed    = "event.flag.not-followed"
	TextFlagUnverified     = "event.flag.unverified"
	TextFlagNoControl      = "event.flag.no-control"
	TextFlagWhere          = "event.flag.where"
	TextFlagWhereLast      = "event.flag.where.last"
	TextFlagBothLast       = "event.flag.both.last"
	TextFlagBoth           = "event.flag.both"
	TextFlagReached        = "event.flag.reached"
	TextFlagRequires       = "event.flag.requires"
	TextFlagEarly          = "event.flag.early"
	TextFlagVerdict        = "event.flag.verdict"
	TextFlagAtTheFlag      = "event.flag.at-the-flag"
	TextMateYes            = "event.mate.yes"
	TextMateNo             = "event.mate.no"
	TextMateUnknown        = "event.mate.unknown"
	TextMateIfNotReached   = "event.mate.if-not-reached"
	TextClaim              = "event.claim"
	TextClaimMateNo        = "event.claim.mate.no"
	TextClaimMateYes       = "event.claim.mate.yes"
	TextClaimMateUnknown   = "event.claim.mate.unknown"
	TextDecisionNotOpen    = "event.decision.not-open"
	TextDecisionAccepted   = "event.decision.accepted"
	TextDecisionRejected   = "event.decision.rejected"
	TextDecisionPostponed  = "event.decision.postponed"
	TextDecisionUnknown    = "event.decision.unknown"
	TextPauseStopped       = "event.pause.stopped"
	TextPauseArbiterSet    = "event.pause.arbiter-set"
	TextPauseToSettle      = "event.pause.to-settle"
	TextPauseRunning       = "event.pause.running"
	TextAdjust             = "event.adjust"
	TextAdjustFits         = "event.adjust.fits"
	TextAdjustUnsure       = "event.adjust.unsure"
	TextDefaultTime        = "event.default-time"
	TextMoveWithoutPress   = "event.move-without-press"
	TextNotOriented        = "event.unexplained.not-oriented"
	TextTwoMovesBoard      = "event.two-moves.board"
	TextUnexplained        = "event.unexplained"
	TextPressWithoutMove   = "event.press-without-move"
	TextClockStopped       = "event.clock-stopped"
	TextIllegal            = "event.illegal"
	TextIllegalPosition    = "event.illegal.what.position"
	TextIllegalTwoMoves    = "event.illegal.what.two-moves"
	TextPenaltyFirst       = "event.penalty.first"
	TextPenaltyNth         = "event.penalty.nth"
	TextPenaltyMateYes     = "event.penalty.mate.yes"
	TextPenaltyMateNo      = "event.penalty.mate.no"
	TextPenaltyMateUnknown = "event.penalty.mate.unknown"
	TextPeriodNone         = "event.clock-counter.no-period"
	TextPeriodEarly        = "event.clock-counter.early"
	TextPeriodLate         = "event.clock-counter.late"
	TextBoardReset         = "event.board-reset"
	TextBoardResetTurned   = "event.board-reset.turned"
	TextBoardResetPly      = "event.board-reset.ply"
	TextBoardResetPlyMove  = "event.board-reset.ply-move"
	TextUnverifiedLost     = "event.unverified.lost"
	TextUnverifiedLaid     = "event.unverified.laid"
	TextUnverifiedOnly     = "event.unverified.laid.only"
	TextUnverifiedSeveral  = "event.unverified.laid.several"
	TextUnverifiedBack     = "event.unverified.back"
	TextUnverifiedFirst    = "event.unverified.first"
	TextUnverifiedRebuilt  = "event.unverified.rebuilt"
	TextWhyPressed         = "event.unverified.why.pressed"
	TextWhyUnreachable     = "event.unverified.why.unreachable"
	TextWhyThenMove        = "event.unverified.why.unreachable-then-move"
	TextRecordFailed       = "event.record-failed"
	TextMoveCorrectedTwo   = "event.move-corrected.two"
	TextMoveCorrected      = "event.move-corrected"
	TextSessionUnknown     = "event.session.unknown"
	TextBoardStopped       = "event.disconnected.board"
	TextClockStoppedPort   = "event.disconnected.clock"
	TextNoClock            = "event.clock-disconnected.no-clock"
	TextReadingImpossible  = "event.clock-reading.impossible"
	TextReadingLook        = "event.clock-reading.look"
	TextReadingFirst       = "event.clock-reading.first"
	TextReadingReset       = "event.clock-reading.reset"
	TextBadTakeBack        = "event.bad-input.take-back"
	TextBadClockTime       = "event.bad-input.clock-time"
	TextBadClaimEnded      = "event.bad-input.claim-ended"
	TextBadKind            = "event.bad-input.kind"

	// The incidents the arbiter settles at the clock: their names (a
	// pause is "to settle" one) and what a change of time fits.
	TextIncidentPress           = "event.incident.press-without-move"
	TextIncidentIllegal         = "event.incident.illegal"
	TextIncidentPenalty         = "event.incident.penalty"
	TextIncidentIncrement       = "event.incident.increment"
	TextIncidentRejected        = "event.incident.rejected-claim"
	TextIncidentRejectedWhat    = "event.incident.rejected-claim.what"
	TextIncidentReset           = "event.incident.reset"
	TextIncidentResetWhat       = "event.incident.reset.what"
	TextIncidentPeriodEarly     = "event.incident.period-early"
	TextIncidentPeriodEarlyWhat = "event.incident.period-early.what"
)

// englishFormats are the English of each code: the sentences arbiterd
// wrote before they had codes, as format strings. internal/i18n's English
// catalog holds the same formats.
var englishFormats = sentence.Formats{
	TextWhite:                       "White",
	TextBlack:                       "Black",
	TextWhitePossessive:             "White's",
	TextBlackPossessive:             "Black's",
	TextPeriodNames[0]:              "first",
	TextPeriodNames[1]:              "second",
	TextPeriodNames[2]:              "third",
	TextPeriodNames[3]:              "fourth",
	TextNthNames[0]:                 "first",
	TextNthNames[1]:                 "second",
	TextNthNames[2]:                 "third",
	TextNthNames[3]:                 "fourth",
	"event.period.st":               "%dst",
	"event.period.nd":               "%dnd",
	"event.period.rd":               "%drd",
	"event.period.th":               "%dth",
	"event.ordinal.st":              "%dst",
	"event.ordinal.nd":              "%dnd",
	"event.ordinal.rd":              "%drd",
	"event.ordinal.th":              "%dth",
	TextSpan:                        "%d.%s s",
	TextMinute:                      "1 minute",
	TextMinutes:                     "%d minutes",
	TextSeconds:                     "%d seconds",
	TextNone:                        "none",
	TextBadAction:                   "reconcile: bad arbiter action",
	TextWhen:                        "%s (clock White %s, Black %s)",
	TextWhenBeforeFirst:             "before the first move",
	TextWhenAfter:                   "after %s",
	"event.end.checkmate":           "checkmate",
	"event.end.stalemate":           "stalemate",
	"event.end.dead-position":       "dead-position",
	"event.end.fivefold-repetition": "fivefold-repetition",
	"event.end.seventy-five-moves":  "seventy-five-moves",
	"event.end.flag":                "flag",
	"event.end.result-signalled":    "result-signalled",
	"event.end.both-flags":          "both-flags",
	"event.end.claim":               "claim",

	TextFlagNotPressed:   "%s made %s but had not pressed the clock when the flag fell: the move is not completed and does not count (6.2.1).",
	TextFlagJudgeError:   "%s flag fell after %d completed moves, but %s. %s.",
	TextFlagAfterEnd:     "%s flag fell after the game had ended (%s, %s); the result stands (6.8, 6.9).",
	TextFlagNotFollowed:  "%s flag fell, but arbiterd has not followed this game: the board has not shown its start position, nor yet a position it can follow the game from, so it has no count of completed moves and no position to judge. Establish the move count (6.3.1) and whether %s can still checkmate (6.9) before ruling (6.10).",
	TextFlagUnverified:   "%s flag fell, but moves made from ply %d on could not be verified (the board was not read for a while), so arbiterd cannot tell whether the control was reached (6.3.1); it counts %d completed moves, and at least %d more were made that it could not verify. Establish the move count before ruling. %s.",
	TextFlagNoControl:    "%s flag fell after %d completed moves, but arbiterd does not know the time control, so it cannot tell whether the control was reached (6.3.1). %s.",
	TextFlagWhere:        "%s flag fell in the %s period after %d completed moves",
	TextFlagWhereLast:    "%s flag fell in the last period (all remaining moves) after %d completed moves",
	TextFlagBothLast:     "Both flags fell in the last period and the order is unknown: the game is drawn (Guidelines III.3.1). %s.",
	TextFlagBoth:         "Both flags fell in a period that is not the last and the order is unknown: play continues (Guidelines III.3.1). %s.",
	TextFlagReached:      "%s; the period requires %d, so the control was reached and play continues (6.3.1).",
	TextFlagRequires:     "; the %s period requires %d",
	TextFlagEarly:        " The clock had already added the %s period, but %s had not completed the %d moves the %s period requires (6.3.1).",
	TextFlagVerdict:      "%s%s.%s %s.",
	TextFlagAtTheFlag:    "%s%s. But %s reached the board within half a second of the flag: if it was made before the flag fell, it completed %s (6.2.1) and with it the control (%d moves), and play continues; if it was made after, %s. Establish which before ruling.",
	TextMateYes:          "%s can still checkmate, so %s loses on time%s (6.9)",
	TextMateNo:           "%s cannot checkmate by any series of legal moves, so the game is drawn%s (6.9)",
	TextMateUnknown:      "arbiterd could not establish whether %s can still checkmate: %s loses on time%s unless the arbiter finds that %s cannot checkmate by any series of legal moves, then it is drawn (6.9)",
	TextMateIfNotReached: " if the control was not reached",

	TextClaim:             "%s claims a draw with White %s, Black %s on the clock. Frozen for the decision: the position (%s); %d plies since the last capture or pawn move; the moves of the last %s: %s. %s.",
	TextClaimMateNo:       "%s cannot checkmate by any series of legal moves: the claim is right at once, the game is drawn (10.2, 6.9)",
	TextClaimMateYes:      "%s can still checkmate (for example %s). Whether %s cannot win by normal means, or is making no effort to, is the arbiter's judgement: watch the game or decide now (10.2)",
	TextClaimMateUnknown:  "arbiterd could not tell whether %s can still checkmate; whether %s cannot win by normal means, or is making no effort to, is the arbiter's judgement (10.2)",
	TextDecisionNotOpen:   "%s: a decision on claim %d, which is not an open claim.",
	TextDecisionAccepted:  "The arbiter accepted %s claim: the game is drawn (10.2).",
	TextDecisionRejected:  "The arbiter rejected %s claim: add 2 minutes to %s clock (10.2). When the clock shows the time added, arbiterd closes this.",
	TextDecisionPostponed: "The arbiter postponed the decision on %s claim and watches the game.",
	TextDecisionUnknown:   "%s: decision %q is not accepted, rejected or postponed.",

	TextPauseStopped:    "The clock was stopped (White %s, Black %s), %s.",
	TextPauseArbiterSet: "the arbiter set the clock",
	TextPauseToSettle:   "to settle %s",
	TextPauseRunning:    "The clock runs again (White %s, Black %s).",
	TextAdjust:          "The arbiter changed %s clock by %s (from %s to %s).",
	TextAdjustFits:      "The arbiter changed %s clock by %s (from %s to %s): %s (%s).",
	TextAdjustUnsure:    "%s Which player's clock this is rests on the clock's turn indicators alone: its displays have not yet shown whose time runs. Check it.",
	TextDefaultTime:     "The default time (%s) has passed since the clock started and %s has not made a move on the board. Check that %s is present: a player who arrives at the board after the default time loses, unless the rules of the competition say otherwise (6.7.1). The decision is the arbiter's.",

	TextMoveWithoutPress:   "%s made %s but %s replied before %s pressed the clock. The move is completed only by %s press or next move (6.2.1); check the clocks.",
	TextNotOriented:        "For %s the board has not shown the starting position (%s) either way round, so arbiterd cannot follow the game. Set the position up, or give the game's start position (meta start-fen).",
	TextTwoMovesBoard:      "The board shows a second move by %s (%s) although %s has not moved. If %s presses the clock it is an illegal move (7.5); otherwise restore the position (%s).",
	TextUnexplained:        "For %s the board has shown a position that no legal sequence of up to %d plies from the game explains (the game is at %s). Pieces may have been knocked over or moved by hand; check the board.",
	TextPressWithoutMove:   "%s pressed the clock %s but no new move of %s appeared on the board. A press without a move is penalised as an illegal move (6.2.4, 7.5.3). %s",
	TextClockStopped:       "The clock was stopped (White %s, Black %s). If the arbiter did not stop it, find out why (6.11); check both times before it is restarted.",
	TextIllegal:            "%s pressed the clock while the board showed %s: an illegal move, completed by the press (7.5.1). Restore the position before it (%s) and have %s make a legal move. %s",
	TextIllegalPosition:    "a position that no legal move of %s explains",
	TextIllegalTwoMoves:    "a second move by %s (%s) although %s had not moved",
	TextPenaltyFirst:       "This is %s first completed illegal move: add %s to %s clock and remove any increment the press earned (%s). When the clock shows the time added, arbiterd closes this alert.",
	TextPenaltyNth:         "This is %s %s completed illegal move: %s loses (7.5.5) unless %s cannot checkmate by any series of legal moves, in which case the game is drawn. %s",
	TextPenaltyMateYes:     "%s can still checkmate (for example %s), so %s loses.",
	TextPenaltyMateNo:      "%s cannot checkmate, so the game is drawn.",
	TextPenaltyMateUnknown: "arbiterd could not establish whether %s can still checkmate; the arbiter decides.",
	TextPeriodNone:         "The clock added %s to %s clock as period %d, but the time control %s has no such period. Check the clock's setting and correct %s time (6.10).",
	TextPeriodEarly:        "The clock added the %s period's %s to %s clock at %s %s completed move, but the %s period requires %d moves (6.3.1). Remove %s from %s clock until move %d is completed (6.10).",
	TextPeriodLate:         "The clock added the %s period's %s to %s clock only at %s %s completed move; the %s period required %d moves, so the time was due %d move(s) earlier (6.3.1). Check %s clock (6.10).",

	TextBoardReset: "The board shows the starting position%s, but the game is at %s (White %d, Black %d completed moves): the board was reset, or another board was put in its place. " +
		"arbiterd keeps the game's record and takes no move back. If the game is over, establish and record its result; if it goes on, set up the position after ply %d on the board (%s) — arbiterd follows the game again as soon as the board shows it — and, if the clock was reset too, set it back (it last showed White %s, Black %s). Presses are not judged until then.",
	TextBoardResetTurned:  " turned round",
	TextBoardResetPly:     "ply %d",
	TextBoardResetPlyMove: "ply %d, %s",
	TextUnverifiedLost: "The board came back showing a position arbiterd cannot follow from the last position it verified (after ply %d: White %d, Black %d completed moves): no sequence of up to %d moves reaches it, and it is not a legal position arbiterd can start from. " +
		"The moves made while the board was not read cannot be verified and are not counted; presses are not judged until the board shows a position arbiterd can follow. Check the board, and establish the moves from ply %d on (scoresheets, the players) before ruling on a flag or a move count (6.10).",
	TextUnverifiedLaid: "%s a position %d plies on from the last position arbiterd verified (after ply %d: White %d, Black %d completed moves); %s. " +
		"Moves made while the board was not read cannot be verified, so arbiterd does not complete them: plies %d to %d (at least %d of White's and %d of Black's moves) are not in the completed-move counts, and a flag gets no verdict on those counts; if more plies were made than that, the plies from here on are numbered too low. " +
		"Establish those moves (scoresheets, the players) before ruling on a flag or a move count (6.10). arbiterd follows the game again from the board's position.",
	TextUnverifiedOnly:    "the only sequence of that length that reaches it is %s",
	TextUnverifiedSeveral: "several sequences of that length reach it, for example %s",
	TextUnverifiedBack:    "The board came back from an absence showing",
	TextUnverifiedFirst:   "The board was first read with the game under way, showing",
	TextUnverifiedRebuilt: "%s a position at least %d plies on from the last position arbiterd verified (after ply %d: White %d, Black %d completed moves), %s. " +
		"The moves made while the board was not read cannot be verified and are not counted: at least %d of White's and %d of Black's moves from ply %d on are missing from the completed-move counts, and a flag gets no verdict on those counts. " +
		"arbiterd follows the game again from the position the board shows (%s); the plies from here on are numbered as if the fewest plies had been made, so their numbers may be too low. Establish the moves from ply %d on (scoresheets, the players) before ruling on a flag or a move count (6.10).",
	TextWhyPressed:        "which the shortest sequences of moves from there reach with %s to move, while %s pressed the clock after the board showed it: more plies were made than they number",
	TextWhyUnreachable:    "which no sequence of moves arbiterd can check reaches",
	TextWhyThenMove:       "which no sequence of moves arbiterd can check reaches, and from which the board then showed a move made",
	TextRecordFailed:      "arbiterd could not add the move %s to its record: %s.",
	TextMoveCorrectedTwo:  "arbiterd had recorded %s, but the board shows that %s played %s and now %s: the board reported the piece's last square after %s reply, so one move looked like two. The record is corrected; %s move count is one less.",
	TextMoveCorrected:     "arbiterd had completed %s, but the board shows that %s played %s: the clock was read while the piece was still on its way. The record is corrected; %s move count is unchanged.",
	TextSessionUnknown:    "An unknown session state %q was reported on port %q; arbiterd ignored it.",
	TextBoardStopped:      "The board on port %q stopped answering; moves and presses made meanwhile are seen only when it is back. Check the connection.",
	TextClockStoppedPort:  "The clock on port %q stopped answering; moves and presses made meanwhile are seen only when it is back. Check the connection.",
	TextNoClock:           "The board reports that no clock is connected; presses and flags are not seen until it is back. Check the clock cable.",
	TextReadingImpossible: "The clock showed a reading the time control cannot produce, so arbiterd does not trust it: %s",
	TextReadingLook:       "The clock's readings need a look: %s.",
	TextReadingFirst: "The clock's readings need a look: it was first read showing White %s and Black %s, not the starting times of the control %s, while the board shows the game at its start. " +
		"If the game has not started, check that the clock is set to the event's time control: the periods and the flags are judged by it. If it has, arbiterd missed its first moves.",
	TextReadingReset:  "The clock was reset to the control's starting times (White %s, Black %s) in the middle of the game; it last showed White %s, Black %s. Set it back to the times before the reset, with the periods each player is in, before play goes on (6.10).",
	TextBadTakeBack:   "%s: take-back to ply %d, but the record has plies %d..%d.",
	TextBadClockTime:  "%s: clock time %s is negative.",
	TextBadClaimEnded: "%s: a claim after the game ended.",
	TextBadKind:       "%s: unknown kind %d.",

	TextIncidentPress:           "%s press without a move",
	TextIncidentIllegal:         "%s illegal move",
	TextIncidentPenalty:         "the %s %s gets for %s first completed illegal move",
	TextIncidentIncrement:       "the increment %s illegal press earned, taken off",
	TextIncidentRejected:        "%s rejected claim",
	TextIncidentRejectedWhat:    "the 2 minutes %s gets for %s rejected claim",
	TextIncidentReset:           "the clock's reset",
	TextIncidentResetWhat:       "the time shown before the clock was reset, set back",
	TextIncidentPeriodEarly:     "the period %s clock added early",
	TextIncidentPeriodEarlyWhat: "the %s period's time the clock added early, taken off",
}

// badAction is ErrBadAction's text as a word of the sentences.
var badAction = Text{Code: TextBadAction}

// The JSON of a Text: {"code":"…","args":[…]}, args left out when there
// are none; an argument is a number, a string or a Text.

func appendText(b []byte, t Text) []byte {
	b = append(b, `{"code":`...)
	b = appendString(b, t.Code)
	if len(t.Args) > 0 {
		b = append(b, `,"args":[`...)
		for i, x := range t.Args {
			if i > 0 {
				b = append(b, ',')
			}
			switch v := x.(type) {
			case int:
				b = strconv.AppendInt(b, int64(v), 10)
			case Text:
				b = appendText(b, v)
			default:
				b = appendString(b, fmt.Sprint(v))
			}
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// readText reads a Text as appendText writes it.
func readText(v json.RawMessage) (Text, error) {
	var raw struct {
		Code *string
		Args []json.RawMessage
	}
	if err := json.Unmarshal(v, &raw); err != nil {
		return Text{}, err
	}
	if raw.Code == nil || *raw.Code == "" {
		return Text{}, errors.New("a text without a code")
	}
	t := Text{Code: *raw.Code}
	for _, a := range raw.Args {
		switch {
		case len(a) > 0 && a[0] == '{':
			n, err := readText(a)
			if err != nil {
				return Text{}, err
			}
			t.Args = append(t.Args, n)
		case len(a) > 0 && a[0] == '"':
			var s string
			if err := json.Unmarshal(a, &s); err != nil {
				return Text{}, err
			}
			t.Args = append(t.Args, s)
		default:
			n, err := strconv.Atoi(string(a))
			if err != nil {
				return Text{}, fmt.Errorf("argument %s: not an integer, a string or a text", a)
			}
			t.Args = append(t.Args, n)
		}
	}
	return t, nil
}

// fText is the `text` of an event whose sentence has a code, beside its
// detail or reason; written only when it has one.
var fText = field{"text",
	func(w *jsonWriter, e *Event) {
		if !e.Text.IsZero() {
			w.key("text")
			w.b = appendText(w.b, e.Text)
		}
	},
	func(v json.RawMessage, e *Event) (err error) {
		e.Text, err = readText(v)
		return err
	}}
