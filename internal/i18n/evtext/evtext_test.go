package evtext

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The English catalog holds, for every code of the stream, the format
// rules/reconcile renders detail and reason from; no other event.* code.
func TestCatalogIsTheStreams(t *testing.T) {
	cat := i18n.English.Formats("event.")
	codes := reconcile.TextCodes()
	for _, c := range codes {
		want, _ := reconcile.EnglishFormat(c)
		if got, ok := cat[c]; !ok {
			t.Errorf("%s: not in the English catalog", c)
		} else if got != want {
			t.Errorf("%s: English catalog %q, rules/reconcile %q", c, got, want)
		}
	}
	if len(cat) != len(codes) {
		t.Errorf("%d event.* codes in the catalog, %d in rules/reconcile", len(cat), len(codes))
	}
}

// goldenEvents reads the events of the scenario goldens and of the other
// event files in testdata folders that carry texts.
func goldenEvents(t *testing.T) []reconcile.Event {
	t.Helper()
	var files []string
	for _, g := range []string{"../../../rules/reconcile/testdata/*.jsonl", "../../testkit/scenario/testdata/*.jsonl",
		"../../output/*/testdata/*.jsonl", "../../demo/testdata/*.jsonl"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	var out []reconcile.Event
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			// read loosely: the scenario goldens write a mate line as
			// "given"
			var m struct {
				Type           reconcile.Type
				Detail, Reason string
				Verdict        reconcile.Verdict
				Text           json.RawMessage
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			e := reconcile.Event{Type: m.Type, Detail: m.Detail, Reason: reconcile.Reason(m.Reason), Verdict: m.Verdict}
			if m.Text != nil {
				e.Text = readText(t, m.Text)
			}
			out = append(out, e)
		}
		fh.Close()
	}
	return out
}

// readText reads a text by way of an event line the codec reads.
func readText(t *testing.T, raw json.RawMessage) reconcile.Text {
	t.Helper()
	line := `{"type":"pause","board":"1","t":0.000000,"seq":1,"state":"running","by":"arbiter","clock":{"white":0.0,"black":0.0},"article":"6.11","reason":"","text":` + string(raw) + `}`
	e, err := reconcile.Unmarshal([]byte(line))
	if err != nil {
		t.Fatalf("text %s: %v", raw, err)
	}
	return e.Text
}

// The English rendering of every event's text, through the catalog, is
// its detail or reason byte for byte, over every golden event file.
func TestEnglishIsTheSentence(t *testing.T) {
	n := 0
	for _, e := range goldenEvents(t) {
		if e.Text.IsZero() {
			continue
		}
		n++
		want := string(e.Reason)
		if e.Type == reconcile.TypeAnomaly {
			want = e.Detail
		}
		if got := Render(i18n.English, e.Text); got != want {
			t.Errorf("%s %s:\n  got %q\n want %q", e.Type, e.Text.Code, got, want)
		}
		if got := Sentence(nil, e); got != want {
			t.Errorf("Sentence(nil) %q", got)
		}
	}
	if n < 40 {
		t.Errorf("only %d texts in the goldens", n)
	}
}

// In Spanish every text of the goldens renders without a formatting
// error, in Spanish words, each sentence with a capital.
func TestSpanishSentences(t *testing.T) {
	for _, e := range goldenEvents(t) {
		if e.Text.IsZero() {
			continue
		}
		s := Render(i18n.Spanish, e.Text)
		if s == "" || strings.Contains(s, "%!") || strings.Contains(s, "MISSING") {
			t.Errorf("%s: %q", e.Text.Code, s)
		}
		for _, en := range []string{"White", "Black", " flag ", "checkmate", "completed", "clock"} {
			if strings.Contains(s, en) {
				t.Errorf("%s: English %q in %q", e.Text.Code, en, s)
			}
		}
		if r, _ := utf8.DecodeRuneInString(s); !unicode.IsUpper(r) {
			t.Errorf("%s: %q begins with a small letter", e.Text.Code, s)
		}
	}
}

// The verdicts of a flag, in Spanish: the article and why.
func TestSpanishVerdicts(t *testing.T) {
	byCode := map[string]string{}
	for _, e := range goldenEvents(t) {
		if e.Type == reconcile.TypeFlag {
			byCode[string(e.Reason)] = Render(i18n.Spanish, e.Text)
		}
	}
	for en, es := range map[string]string{
		"Black's flag fell in the first period after 37 completed moves; the first period requires 40. White can still checkmate, so Black loses on time (6.9).": "Ha caído la bandera de las negras en el primer periodo con 37 jugadas completadas; el primer periodo exige 40. Las blancas aún pueden dar mate, así que las negras pierden la partida por tiempo (6.9).",
		"White's flag fell in the first period after 40 completed moves; the period requires 40, so the control was reached and play continues (6.3.1).":         "Ha caído la bandera de las blancas en el primer periodo con 40 jugadas completadas; el periodo exige 40, así que se alcanzó el control de tiempo y la partida continúa (6.3.1).",
	} {
		got, ok := byCode[en]
		if !ok {
			t.Errorf("no golden flag with the reason %q", en)
			continue
		}
		if got != es {
			t.Errorf("Spanish:\n  got %q\n want %q", got, es)
		}
	}
	// a draw: the opponent cannot checkmate (6.9)
	draw := reconcile.Event{Type: reconcile.TypeFlag}
	for _, e := range goldenEvents(t) {
		if e.Type == reconcile.TypeFlag && e.Verdict == reconcile.VerdictDraw && !e.Text.IsZero() {
			draw = e
		}
	}
	if s := Render(i18n.Spanish, draw.Text); !strings.Contains(s, "no pueden dar mate con ninguna serie de movimientos legales, así que la partida es tablas (6.9).") {
		t.Errorf("draw in Spanish: %q (%s)", s, draw.Reason)
	}
}

// An event without a text, or with a code the catalogs do not know, is
// shown as the stream has it.
func TestFallback(t *testing.T) {
	old := reconcile.Event{Type: reconcile.TypeAnomaly, Detail: "as written before"}
	if got := Sentence(i18n.Spanish, old); got != "as written before" {
		t.Errorf("no text: %q", got)
	}
	newer := reconcile.Event{Type: reconcile.TypeFlag, Reason: "newer", Text: reconcile.Text{Code: "event.flag.reached",
		Args: []any{reconcile.Text{Code: "event.not-yet-known"}, 40}}}
	if got := Sentence(i18n.Spanish, newer); got != "newer" {
		t.Errorf("unknown nested code: %q", got)
	}
}

func TestCapitalise(t *testing.T) {
	for in, want := range map[string]string{
		"las blancas pulsaron. las negras no.":     "Las blancas pulsaron. Las negras no.",
		"arbiterd no pudo. las negras 18...Bxg1 x": "arbiterd no pudo. Las negras 18...Bxg1 x",
		"Ya (6.9).": "Ya (6.9).",
	} {
		if got := capitalise(in); got != want {
			t.Errorf("capitalise(%q) = %q, want %q", in, got, want)
		}
	}
}
