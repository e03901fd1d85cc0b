package i18n

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// args lists the arguments a format uses, by index, as package fmt counts
// them: a verb takes the next one, %[n] sets it, %% takes none.
func args(format string) ([]int, error) {
	var used []int
	next := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '[' {
			end := strings.IndexByte(format[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed %%[ in %q", format)
			}
			if _, err := fmt.Sscanf(format[i+1:i+end], "%d", &next); err != nil {
				return nil, fmt.Errorf("bad %%[n] in %q", format)
			}
			i += end + 1
		}
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			return nil, fmt.Errorf("a verb ends %q", format)
		}
		// The catalogs use these verbs: any other letter after a percent
		// sign is a literal percent left single ("[%clk]" must be
		// written "[%%clk]"), which prints as an error.
		if strings.IndexByte("sdqvfgx", format[i]) < 0 {
			return nil, fmt.Errorf("%%%c in %q: a verb the catalogs do not use (a literal percent is written %%%%)", format[i], format)
		}
		used = append(used, next)
		next++
	}
	slices.Sort(used)
	return slices.Compact(used), nil
}

// TestCatalogsComplete: every code has a message in every language, no
// catalog has a code the English one lacks, and each language's message
// uses exactly the English message's arguments.
func TestCatalogsComplete(t *testing.T) {
	for _, tag := range Supported {
		if _, ok := catalogsByLang[tag]; !ok {
			t.Errorf("no catalog for %s", tag)
		}
	}
	for tag, cat := range catalogsByLang {
		if tag == language.English {
			continue
		}
		for code, en := range catalogEN {
			msg, ok := cat[code]
			if !ok {
				t.Errorf("%s: no message for %s (English: %q)", tag, code, en)
				continue
			}
			want, err := args(en)
			if err != nil {
				t.Errorf("en %s: %v", code, err)
			}
			got, err := args(msg)
			if err != nil {
				t.Errorf("%s %s: %v", tag, code, err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s uses arguments %v, English %v:\n%q\n%q", tag, code, got, want, msg, en)
			}
		}
		for code := range cat {
			if _, ok := catalogEN[code]; !ok {
				t.Errorf("%s: %s is in no English message", tag, code)
			}
		}
	}
}

func TestRender(t *testing.T) {
	m := M("audit.reading", "1:05:00", 12345)
	if got := English.Text(m); got != "1:05:00 after move 12345" {
		t.Errorf("English %q: digits grouped or words changed", got)
	}
	if got := Spanish.Text(m); got != "1:05:00 tras la jugada 12345" {
		t.Errorf("Spanish %q", got)
	}
	// Nested messages, lists, capitals and a reordered argument.
	p := M("audit.period-of", M("side.black"), "30 min", 2)
	if got := English.Text(p); got != "Black's 30 min of period 2" {
		t.Errorf("English %q", got)
	}
	if got := Spanish.Text(p); got != "los 30 min del periodo 2 de las negras" {
		t.Errorf("Spanish %q", got)
	}
	if got := Spanish.Capital(p); got != "Los 30 min del periodo 2 de las negras" {
		t.Errorf("Spanish capital %q", got)
	}
	l := List{Sep: M("list.and"), Items: []any{M("side.white"), M("side.black")}}
	if got := Spanish.Sprintf("%s", l); got != "las blancas y las negras" {
		t.Errorf("list %q", got)
	}
	// Decimals: a point in English, a comma in Spanish.
	if got, want := English.Sprintf("%.3f s", 5321.5), "5321.500 s"; got != want {
		t.Errorf("English %q, want %q", got, want)
	}
	if got, want := Spanish.Sprintf("%.3f s", 5321.5), "5321,500 s"; got != want {
		t.Errorf("Spanish %q, want %q", got, want)
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want language.Tag
	}{
		{"es", language.Spanish}, {"en", language.English}, {"es-AR", language.Spanish}, {"ES", language.Spanish},
		{"es_ES.UTF-8", language.Spanish}, {"en_GB", language.English}, {"C", language.English}, {"POSIX", language.English},
	} {
		got, err := Parse("--lang", c.in)
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"fr", "pt-BR", "ca", "klingon!", "", "x"} {
		_, err := Parse("--lang", bad)
		var ue *UnknownError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), fmt.Sprintf("--lang %q", bad)) || !strings.Contains(err.Error(), "en, es") {
			t.Errorf("Parse(%q): %v", bad, err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		env  func(string) string
		want language.Tag
		ok   bool
	}{
		{env("LANG", "es_MX.UTF-8"), language.Spanish, true},
		{env("LANG", "es_ES.UTF-8", "LC_ALL", "en_US.UTF-8"), language.English, true},
		{env("LANG", "en_US.UTF-8", "LC_MESSAGES", "es_AR"), language.Spanish, true},
		{env("LANG", "C.UTF-8"), language.English, true},
		{env("LANG", "de_DE.UTF-8"), language.English, false},
	} {
		got, ok := FromEnv(c.env)
		if got != c.want || ok != c.ok {
			t.Errorf("FromEnv: %v %v, want %v %v", got, ok, c.want, c.ok)
		}
	}
}

func TestChoose(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "es_ES.UTF-8")
	for _, c := range []struct {
		flag, config string
		want         language.Tag
	}{
		{"", "", language.Spanish}, {"en", "", language.English}, {"", "en", language.English}, {"es", "en", language.Spanish},
	} {
		got, err := Choose(c.flag, c.config)
		if err != nil || got != c.want {
			t.Errorf("Choose(%q, %q) = %v, %v; want %v", c.flag, c.config, got, err, c.want)
		}
	}
	if _, err := Choose("fr", ""); err == nil || !strings.Contains(err.Error(), `--lang "fr"`) {
		t.Errorf("--lang fr: %v", err)
	}
	if _, err := Choose("", "fr"); err == nil || !strings.Contains(err.Error(), `lang: "fr"`) {
		t.Errorf("lang: fr: %v", err)
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	for h, want := range map[string]language.Tag{
		"es-ES,es;q=0.9,en;q=0.8": language.Spanish,
		"en-US,en;q=0.9,es;q=0.5": language.English,
		"es-419":                  language.Spanish,
		"de-DE":                   language.English,
		"":                        language.English,
		"fr;q=0.9, es;q=0.8":      language.Spanish,
		";;garbage":               language.English,
	} {
		if got := FromAcceptLanguage(h); got != want {
			t.Errorf("Accept-Language %q: %v, want %v", h, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	cause := errors.New("unexpected EOF")
	e := Errorf("audit.err.stopped", "round.pgn", 12, cause)
	if want := fmt.Sprintf("%s:%d: reading stopped: %v", "round.pgn", 12, cause); e.Error() != want {
		t.Errorf("English %q, want %q", e.Error(), want)
	}
	if !errors.Is(e, cause) {
		t.Error("the error does not unwrap to its cause")
	}
	q := Errorf("audit.err.move", `Nf3"`, 7, cause)
	if want := fmt.Sprintf("move %q at line %d cannot be played: %v", `Nf3"`, 7, cause); q.Error() != want {
		t.Errorf("English %q, want %q", q.Error(), want)
	}
	wrapped := fmt.Errorf("audit: %w", e)
	got := Spanish.Err(wrapped)
	if want := "audit: round.pgn:12: la lectura se detuvo: unexpected EOF"; got.Error() != want {
		t.Errorf("Spanish %q, want %q", got.Error(), want)
	}
	if !errors.Is(got, cause) || !errors.Is(got, e) {
		t.Error("the error in Spanish does not unwrap to the same errors")
	}
	if English.Err(wrapped) != wrapped || Spanish.Err(nil) != nil || Spanish.Err(cause) != cause {
		t.Error("Err changed an error it has no words for")
	}
}
