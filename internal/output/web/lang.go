package web

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// The dashboard speaks the languages of internal/i18n. A request's
// language is, in this order: the page's switch (EN | ES), kept in the
// langCookie cookie; the server's Options.Lang (the configuration's
// lang:); the browser's Accept-Language; English. The page gets its words
// from /words.js in that language, and the alerts' labels and the
// sentences words.go writes come in it too (the API's and the stream's).
// The events' own detail and reason sentences stay as rules/reconcile
// writes them, in English.

// langCookie holds the language the person at the screen chose.
const langCookie = i18n.LangCookie

// printer is the language of request r (i18n.ForRequest: the order
// above).
func (s *Server) printer(r *http.Request) *i18n.Printer { return i18n.ForRequest(r, s.opt.Lang) }

// Printer is the language of request r as the dashboard chooses it: the
// pages served beside the dashboard (the hall's /hall) speak it too.
func (s *Server) Printer(r *http.Request) *i18n.Printer { return s.printer(r) }

// pageWords is what /words.js gives the page: its language, the languages
// of the switch, and the page's words (the catalogs' web.* formats).
type pageWords struct {
	Lang  string            `json:"lang"`
	Langs []string          `json:"langs"`
	Words map[string]string `json:"words"`
}

// words serves the page's words as a script that sets
// window.arbiterdWords, loaded before app.js.
func (s *Server) pageWords(w http.ResponseWriter, r *http.Request) {
	p := s.printer(r)
	var langs []string
	for _, t := range i18n.Supported {
		b, _ := t.Base()
		langs = append(langs, b.String())
	}
	data, _ := json.Marshal(pageWords{Lang: p.Lang(), Langs: langs, Words: p.Formats("web.")})
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Language, Cookie")
	var b strings.Builder
	b.WriteString("window.arbiterdWords = ")
	b.Write(data)
	b.WriteString(";\n")
	_, _ = w.Write([]byte(b.String()))
}
