package scaleout

import (
	"html/template"
	"io"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// The hall's /hall page and a venue's /venue page speak the reader's
// language, chosen per request as the dashboard chooses it
// (i18n.ForRequest): the dashboard's switch, kept in its cookie, then
// the configuration's lang:, then the browser's Accept-Language, then
// English. Their words are the catalogs' hall.* and venue.* codes; the
// English pages are as they were before the pages had languages
// (testdata/hall.en.golden, venue.en.golden). A venue's name, a board's
// number, a state's class and what another layer wrote (an error from
// the file system) stay as they are.

// saying is a sentence the hall writes for people (an alert's text): its
// code in the catalogs and its arguments, strings all, so that the hall's
// bucket keeps it as it is and a page renders it in its reader's language.
type saying struct {
	Code string   `json:"code"`
	Args []string `json:"args,omitempty"`
}

func say(code string, args ...string) saying { return saying{Code: code, Args: args} }

// in is the sentence in p's language.
func (s saying) in(p *i18n.Printer) string { return p.Text(s.message()) }

// message is the sentence as a message of the catalogs.
func (s saying) message() i18n.Message {
	a := make([]any, len(s.Args))
	for i, x := range s.Args {
		a[i] = x
	}
	return i18n.M(s.Code, a...)
}

// String is the sentence in English: the alert's Text.
func (s saying) String() string { return s.in(i18n.English) }

// pageWords are what a page's template says in the reader's language.
type pageWords struct{ p *i18n.Printer }

// T is the message of code with args.
func (w pageWords) T(code string, args ...any) string { return w.p.Sprintf(code, args...) }

// Word is the message of prefix+name, or name itself when the catalogs
// have no such code (a state or a kind newer than the catalogs).
func (w pageWords) Word(prefix, name string) string { return w.p.Word(prefix+name, name) }

// hallView is what /hall shows.
type hallView struct {
	pageWords
	Status
}

// Say is an alert's text in the reader's language: its sentence, or its
// Text as it was kept (an alert of an earlier hall).
func (v hallView) Say(a HallAlert) string {
	if a.say == nil || !i18n.Known(a.say.Code) {
		return a.Text
	}
	return a.say.in(v.p)
}

// writeHallPage writes /hall in p's language.
func writeHallPage(w io.Writer, p *i18n.Printer, st Status) error {
	return hallPage.Execute(w, hallView{pageWords{p}, st})
}

var hallPage = template.Must(template.New("hall").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><title>{{.T "hall.title"}}</title>
<style>body{font-family:sans-serif;margin:1em}td,th{padding:.2em .8em;text-align:left}
.cut-off{background:#fdd}.waiting{background:#eee}.connected{background:#dfd}.alert{color:#a40}.acked{color:#888}
form{display:inline;margin-left:.6em}</style></head>
<body><h1>{{.T "hall.heading"}}</h1><p><a href="/">{{.T "hall.boards"}}</a></p>
<table><tr><th>{{.T "hall.col.venue"}}</th><th>{{.T "hall.col.state"}}</th><th>{{.T "hall.col.last-heard"}}</th><th>{{.T "hall.col.behind"}}</th><th>{{.T "hall.col.boards"}}</th></tr>
{{range .Venues}}<tr class="{{.State}}"><td>{{.Name}}</td><td>{{$.Word "hall.state." .State}}</td><td>{{if not .LastSeen.IsZero}}{{.LastSeen.UTC.Format "15:04:05"}}{{end}}</td><td>{{if .Behind}}{{.Behind}}{{else}}{{$.T "hall.unknown"}}{{end}}</td><td>{{len .Boards}}</td></tr>
{{end}}</table>
<h2>{{.T "hall.alerts"}}</h2>{{range .Alerts}}<p class="alert{{if .Acked}} acked{{end}}" id="alert-{{.ID}}">{{.Time.UTC.Format "15:04:05"}} {{$.Word "hall.kind." .Kind}}: {{$.Say .}}{{if not .Acked}}<form method="post" action="/api/hall/alerts/{{.ID}}/ack"><button>{{$.T "hall.ack"}}</button></form>{{end}}</p>{{else}}<p>{{$.T "hall.alerts.none"}}</p>{{end}}
</body></html>`))

// venueView is what /venue shows.
type venueView struct {
	pageWords
	Venue string
	HallLink
}

// BoardsBehindText lists the boards behind: "(boards 2, 10)".
func (v venueView) BoardsBehindText() string {
	return v.p.Sprintf("venue.boards-behind", strings.Join(v.BoardsBehind, ", "))
}

// writeVenuePage writes /venue in p's language.
func writeVenuePage(w io.Writer, p *i18n.Printer, venue string, l HallLink) error {
	return venuePage.Execute(w, venueView{pageWords{p}, venue, l})
}

var venuePage = template.Must(template.New("venue").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><title>{{.T "venue.title" .Venue}}</title>
<style>body{font-family:sans-serif;margin:1em}td,th{padding:.2em .8em;text-align:left}
.cut-off{background:#fdd}.waiting{background:#eee}.connected{background:#dfd}</style></head>
<body><h1>{{.T "venue.heading" .Venue}}</h1><p><a href="/">{{.T "venue.boards"}}</a></p>
<table><tr><th>{{.T "venue.col.link"}}</th><th>{{.T "venue.col.hall"}}</th><th>{{.T "venue.col.last-heard"}}</th><th>{{.T "venue.col.behind"}}</th><th>{{.T "venue.col.leaves"}}</th></tr>
<tr class="{{.State}}"><td>{{.Word "venue.state." .State}}</td><td>{{.Hall}}</td><td>{{if not .LastHeard.IsZero}}{{.LastHeard.UTC.Format "15:04:05"}}{{else}}{{.T "venue.never"}}{{end}}</td>
<td>{{if .Behind}}{{.Behind}}{{if .BoardsBehind}} {{.BoardsBehindText}}{{end}}{{else}}{{.T "venue.unknown"}}{{end}}</td>
<td>{{if ge .LeafConnections 0}}{{.LeafConnections}}{{else}}–{{end}}</td></tr></table>
<p>{{.T "venue.while-cut"}}</p>
</body></html>`))
