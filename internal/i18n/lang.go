package i18n

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/text/language"
)

// Supported are the languages arbiterd speaks, English first (the
// fallback).
var Supported = []language.Tag{language.English, language.Spanish}

var matcher = language.NewMatcher(Supported)

// Names lists the supported languages' codes: "en, es".
func Names() string {
	var s []string
	for _, t := range Supported {
		b, _ := t.Base()
		s = append(s, b.String())
	}
	return strings.Join(s, ", ")
}

// Match is the supported language closest to t, English when none is.
func Match(t language.Tag) language.Tag {
	_, i, conf := matcher.Match(t)
	if conf == language.No {
		return language.English
	}
	return Supported[i]
}

// UnknownError is a language arbiterd does not speak, or a name that is no
// language, given by Source ("--lang", "lang:").
type UnknownError struct {
	Source, Name string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("%s %q: not a language arbiterd speaks (it speaks %s)", e.Source, e.Name, Names())
}

// Parse reads a language a person gave: "es", "en", "es-AR", "es_ES.UTF-8".
// A language arbiterd does not speak is an *UnknownError naming source.
func Parse(source, name string) (language.Tag, error) {
	t, ok := parsePOSIX(name)
	if !ok {
		return language.Und, &UnknownError{source, name}
	}
	s, ok := supportedBase(t)
	if !ok {
		return language.Und, &UnknownError{source, name}
	}
	return s, nil
}

// parsePOSIX reads a BCP 47 tag or a POSIX locale name ("es_ES.UTF-8",
// "en_US@euro"); "C" and "POSIX" are English.
func parsePOSIX(s string) (language.Tag, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	switch s {
	case "":
		return language.Und, false
	case "C", "POSIX":
		return language.English, true
	}
	t, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return language.Und, false
	}
	return t, true
}

// FromEnv is the language the environment asks for: LC_ALL, else
// LC_MESSAGES, else LANG (the first one set, as POSIX orders them), else on
// Windows the user's display language; ok is false when nothing names a
// language arbiterd speaks. getenv is os.Getenv outside tests.
func FromEnv(getenv func(string) string) (t language.Tag, ok bool) {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			return fromName(s)
		}
	}
	for _, s := range systemLanguages() {
		if t, ok := fromName(s); ok {
			return t, true
		}
	}
	return language.English, false
}

func fromName(s string) (language.Tag, bool) {
	t, ok := parsePOSIX(s)
	if !ok {
		return language.English, false
	}
	return supportedBase(t)
}

// supportedBase is the supported language of t's base language ("es" for
// "es-AR"); a language arbiterd does not speak is not matched to a
// neighbour.
func supportedBase(t language.Tag) (language.Tag, bool) {
	b, conf := t.Base()
	if conf == language.No {
		return language.English, false
	}
	for _, s := range Supported {
		if sb, _ := s.Base(); sb == b {
			return s, true
		}
	}
	return language.English, false
}

// Choose is the language of a command: its --lang flag when given, else
// the configuration's lang:, else the environment's, else English. An
// unknown flag or configuration value is an error naming it.
func Choose(flag, config string) (language.Tag, error) {
	if flag != "" {
		return Parse("--lang", flag)
	}
	if config != "" {
		return Parse("lang:", config)
	}
	t, _ := FromEnv(os.Getenv)
	return t, nil
}

// FromAcceptLanguage is the language of an HTTP request's Accept-Language
// header: the supported language the browser prefers, English when it
// names none.
func FromAcceptLanguage(header string) language.Tag {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return language.English
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return language.English
	}
	return Supported[i]
}
