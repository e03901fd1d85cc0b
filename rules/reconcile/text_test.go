package reconcile

import (
	"bufio"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// sentenceTypes are the types whose detail or reason is a sentence (the
// others' reason is a word: retract, end).
var sentenceTypes = map[Type]bool{TypeAnomaly: true, TypeFlag: true, TypeAdjust: true,
	TypePause: true, TypeClaim: true, TypeDecision: true}

// checkText checks an event arbiterd emitted: a sentence has its text, the
// text is read back as it was written, and its English is the detail or
// the reason, byte for byte.
func checkText(t testing.TB, e Event) {
	t.Helper()
	if !sentenceTypes[e.Type] {
		if !e.Text.IsZero() {
			t.Errorf("%s event with a text: %s", e.Type, Marshal(e))
		}
		return
	}
	want := string(e.Reason)
	if e.Type == TypeAnomaly {
		want = e.Detail
	}
	if e.Text.IsZero() {
		t.Errorf("a sentence without its text: %s", Marshal(e))
		return
	}
	if _, ok := EnglishFormat(e.Text.Code); !ok || want == "" {
		t.Errorf("a text of an unknown code, or an empty sentence: %s", Marshal(e))
	}
	back, err := Unmarshal(Marshal(e))
	if err != nil {
		t.Errorf("%s: %v", Marshal(e), err)
		return
	}
	if !reflect.DeepEqual(back.Text, e.Text) {
		t.Errorf("text read back as %+v, want %+v", back.Text, e.Text)
	}
	if got := back.Text.String(); got != want {
		t.Errorf("the text's English differs from the sentence:\n text %s\n want %s", got, want)
	}
}

// Every event of the scenario goldens (here and internal/testkit/scenario)
// that carries a sentence carries its text, whose English is the sentence.
func TestGoldenTexts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	more, _ := filepath.Glob("../../internal/testkit/scenario/testdata/*.jsonl")
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("only %d golden files", len(files))
	}
	texts := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			// the scenario goldens write a mate line as "given": read
			// the members the check needs
			var m struct {
				Type           Type
				Detail, Reason string
				Text           json.RawMessage
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			e := Event{Type: m.Type, Detail: m.Detail, Reason: Reason(m.Reason)}
			if m.Text != nil {
				if e.Text, err = readText(m.Text); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
			checkText(t, e)
			if !e.Text.IsZero() {
				texts++
			}
		}
		fh.Close()
	}
	if texts < 40 {
		t.Errorf("%d texts in the goldens, want at least 40", texts)
	}
}

// Every code has its English; every code a sentence names is one.
func TestTextCodes(t *testing.T) {
	for _, c := range TextCodes() {
		if !strings.HasPrefix(c, "event.") {
			t.Errorf("code %q outside event.", c)
		}
	}
	if badAction.String()+"" != ErrBadAction.Error() {
		t.Errorf("bad action %q, error %q", badAction.String(), ErrBadAction.Error())
	}
	if got := (Text{Code: "event.nonesuch"}).String(); got != "" {
		t.Errorf("unknown code rendered %q", got)
	}
}

// A text is written as {"code":…,"args":[…]} and read back to an equal
// one: numbers, strings, nested texts, and no args at all.
func TestTextReadsBack(t *testing.T) {
	text := say(TextFlagVerdict, say(TextFlagWhere, possWord(clockd.Black), periodWord(1), 18),
		say(TextFlagRequires, periodWord(1), 40), "", mateText(clockd.White, MateYes, ""))
	e := Event{Type: TypeFlag, Board: "1", Seq: 10, Side: clockd.Black, Period: 1, MovesCompleted: 18, MovesRequired: 40,
		OpponentCanMate: MateYes, MateLine: []string{"g1b6"}, Verdict: VerdictLoss, Article: "6.9", Text: text}
	e.setSentence()
	want := `"reason":"Black's flag fell in the first period after 18 completed moves; the first period requires 40. White can still checkmate, so Black loses on time (6.9).",` +
		`"text":{"code":"event.flag.verdict","args":[{"code":"event.flag.where","args":[{"code":"event.side.black.possessive"},{"code":"event.period.first"},18]},` +
		`{"code":"event.flag.requires","args":[{"code":"event.period.first"},40]},"",{"code":"event.mate.yes","args":[{"code":"event.side.white"},{"code":"event.side.black"},""]}]}}`
	if line := string(Marshal(e)); !strings.HasSuffix(line, want) {
		t.Errorf("Marshal:\n got %s\nwant …%s", line, want)
	}
	checkText(t, e)
	a := Event{Type: TypeAnomaly, Board: "1", Seq: 3, Kind: KindClockDisconnected, NoSide: true, Article: "–", Text: Text{Code: TextNoClock}}
	a.setSentence()
	if line := string(Marshal(a)); !strings.HasSuffix(line, `,"text":{"code":"event.clock-disconnected.no-clock"}}`) {
		t.Errorf("a text without arguments: %s", line)
	}
	checkText(t, a)
	p := Event{Type: TypePause, Board: "1", Seq: 4, State: StateRunning, By: ByArbiter, Article: "6.11",
		Text: say(TextPauseRunning, hms(90*time.Minute), hms(-time.Second))}
	p.setSentence()
	checkText(t, p)
}

// A text arbiterd does not write that way is no event: an empty list of
// arguments, a number with a fraction, a boolean, a text without a code.
func TestTextRejects(t *testing.T) {
	head := `{"type":"pause","board":"1","t":0.000000,"seq":1,"state":"running","by":"arbiter","clock":{"white":0.0,"black":0.0},"article":"6.11","reason":"r","text":`
	for _, text := range []string{
		`{"code":"event.none","args":[]}`,
		`{"code":"event.duration.minutes","args":[1.5]}`,
		`{"code":"event.duration.minutes","args":[true]}`,
		`{"code":"","args":[1]}`,
		`{"args":[1]}`,
		`{"code":"event.when","args":[{"args":[]}]}`,
		`{"args":[1],"code":"event.duration.minutes"}`,
		`"event.none"`,
	} {
		if _, err := Unmarshal([]byte(head + text + "}")); !errors.Is(err, ErrNotEvent) {
			t.Errorf("text %s read: %v", text, err)
		}
	}
	if _, err := Unmarshal([]byte(head + `{"code":"event.duration.minutes","args":[3]}}`)); err != nil {
		t.Errorf("a text as arbiterd writes it: %v", err)
	}
}

// The words of counts keep the English of the helpers they replace.
func TestOrdinalWords(t *testing.T) {
	for n := 1; n <= 125; n++ {
		if got, want := periodWord(n).String(), periodName(n); got != want {
			t.Errorf("period %d: %q, want %q", n, got, want)
		}
		if got, want := nthWord(n).String(), Nth(n); got != want {
			t.Errorf("count %d: %q, want %q", n, got, want)
		}
		if got, want := ordinalWord(n).String(), ordinal(n); got != want {
			t.Errorf("ordinal %d: %q, want %q", n, got, want)
		}
	}
	for _, d := range []time.Duration{time.Minute, 2 * time.Minute, 90 * time.Second, 2500 * time.Millisecond, 0} {
		w := durationWords(d)
		if s, ok := w.(Text); ok {
			w = s.String()
		}
		if got := w.(string); got != map[time.Duration]string{time.Minute: "1 minute", 2 * time.Minute: "2 minutes", 90 * time.Second: "90 seconds", 2500 * time.Millisecond: "2.5 s", 0: "0 seconds"}[d] {
			t.Errorf("%v: %q", d, got)
		}
	}
}

// A span with decimals is seconds' words, its decimals apart.
func TestSpanWord(t *testing.T) {
	for _, d := range []time.Duration{18395 * time.Millisecond, 2500 * time.Millisecond, 50 * time.Millisecond, 3 * time.Second, -1500 * time.Millisecond} {
		w := spanWord(d)
		if s, ok := w.(Text); ok {
			w = s.String()
		}
		if got := w.(string); got != seconds(d) {
			t.Errorf("%v: %q, want %q", d, got, seconds(d))
		}
	}
}

// Every code text.go names (a constant, an element of the names'
// arrays) has its English: a code no test happens to emit cannot lack it.
func TestTextCodesDeclared(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "text.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
			if c, err := strconv.Unquote(l.Value); err == nil && strings.HasPrefix(c, "event.") && !strings.Contains(c, "%") {
				declared[c] = true
			}
		}
		return true
	})
	for c := range declared {
		if strings.HasSuffix(c, ".") {
			continue // a prefix the helpers complete ("event.period.")
		}
		if _, ok := EnglishFormat(c); !ok {
			t.Errorf("%s is declared but has no English", c)
		}
	}
	if len(declared) < 100 {
		t.Errorf("only %d codes found in text.go", len(declared))
	}
}
