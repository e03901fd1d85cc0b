package i18n

import (
	"errors"
	"strings"
)

// A Localizer is an error that can say itself in a language.
type Localizer interface {
	error
	In(p *Printer) string
}

// A Sentence is a sentence kept as a code of the catalogs and its
// arguments by a package that imports no internal one (clockd's Text and
// its time control's SyntaxError, rules' FEN errors). An argument may be a
// Sentence too, said in the same language. An error that is a Sentence is
// said in a printer's language by Err when the catalogs know its codes.
type Sentence interface {
	SentenceCode() string
	SentenceArgs() []any
}

// MessageOf is s as a message: nested sentences become nested messages.
func MessageOf(s Sentence) Message {
	args := make([]any, len(s.SentenceArgs()))
	for i, a := range s.SentenceArgs() {
		if n, ok := a.(Sentence); ok {
			a = MessageOf(n)
		}
		args[i] = a
	}
	return M(s.SentenceCode(), args...)
}

// KnownSentence reports whether the catalogs know s's code and those of
// every sentence nested in it.
func KnownSentence(s Sentence) bool {
	if !Known(s.SentenceCode()) {
		return false
	}
	for _, a := range s.SentenceArgs() {
		if n, ok := a.(Sentence); ok && !KnownSentence(n) {
			return false
		}
	}
	return true
}

// Error is an error whose text is a message of the catalogs. Its Error is
// the English; it unwraps to the first error among its arguments.
type Error struct {
	Msg Message
}

// Errorf is the error of the message of code with args.
func Errorf(code string, args ...any) *Error { return &Error{M(code, args...)} }

func (e *Error) Error() string { return English.Text(e.Msg) }

// In is the error's text in p's language; an error among its arguments is
// said in p's language too.
func (e *Error) In(p *Printer) string {
	args := make([]any, len(e.Msg.Args))
	for i, a := range e.Msg.Args {
		if err, ok := a.(error); ok {
			if _, said := a.(Localizer); !said {
				a = p.Err(err).Error()
			}
		}
		args[i] = a
	}
	return p.Text(Message{Code: e.Msg.Code, Args: args})
}

func (e *Error) Unwrap() error {
	for _, a := range e.Msg.Args {
		if err, ok := a.(error); ok {
			return err
		}
	}
	return nil
}

// Err is err said in p's language: the outermost Localizer (or Sentence
// the catalogs know) in its chain said in p's language inside the text around it (a prefix such as
// "audit: " stays). errors.Is and errors.As see err underneath.
func (p *Printer) Err(err error) error {
	if err == nil || p == nil || p.Lang() == "en" {
		return err
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if l, ok := e.(Localizer); ok {
			text := strings.Replace(err.Error(), l.Error(), l.In(p), 1)
			return &said{err: err, text: text}
		}
		if s, ok := e.(Sentence); ok && KnownSentence(s) {
			text := strings.Replace(err.Error(), e.Error(), p.Text(MessageOf(s)), 1)
			return &said{err: err, text: text}
		}
		// Several errors joined (errors.Join: a configuration's mistakes,
		// one a line), each said in p's language.
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			var en, in []string
			for _, c := range j.Unwrap() {
				en = append(en, c.Error())
				in = append(in, p.Err(c).Error())
			}
			if e.Error() != strings.Join(en, "\n") {
				return err // another kind of multiple error: its words are its own
			}
			text := strings.Replace(err.Error(), e.Error(), strings.Join(in, "\n"), 1)
			return &said{err: err, text: text}
		}
	}
	return err
}

type said struct {
	err  error
	text string
}

func (s *said) Error() string { return s.text }
func (s *said) Unwrap() error { return s.err }
