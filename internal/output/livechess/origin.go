package livechess

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// normalOrigin returns an origin as browsers send it: scheme://host[:port],
// lower case, without a default port or a trailing slash; "" when s is not
// an origin.
func normalOrigin(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

// ValidOrigin reports whether s is an origin the API can let in:
// http(s)://host[:port] and nothing more.
func ValidOrigin(s string) bool { return normalOrigin(s) != "" }

func normalOrigins(in []string) []string {
	var out []string
	for _, o := range in {
		if n := normalOrigin(o); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// allowedOrigin reports whether a page of origin (the Origin header) may
// use the API: no Origin (not a browser page), the API's own origin, or a
// configured one.
func (a *API) allowedOrigin(r *http.Request, origin string) bool {
	if origin == "" {
		return true
	}
	if u, err := url.Parse(origin); err == nil && strings.EqualFold(u.Host, r.Host) {
		return true // same origin
	}
	n := normalOrigin(origin)
	for _, o := range a.o.Origins {
		if n != "" && n == o {
			return true
		}
	}
	return false
}

// allowedHost reports whether the request addresses the API by a name it
// answers to: any when Options.Hosts is nil, else an IP address, localhost
// or one of Hosts.
func (a *API) allowedHost(r *http.Request) bool {
	if a.o.Hosts == nil {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	for _, h := range a.o.Hosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// admit applies the origin policy to a request, answering it (403) when
// it is refused; an admitted browser page from another origin gets the
// CORS headers that let it read the answer.
func (a *API) admit(w http.ResponseWriter, r *http.Request) bool {
	if !a.allowedHost(r) {
		httpError(w, http.StatusForbidden, "the LiveChess API does not answer to the name "+quote(r.Host)+
			": address it as localhost or by IP address")
		return false
	}
	origin := r.Header.Get("Origin")
	if !a.allowedOrigin(r, origin) {
		allowed := "none"
		if len(a.o.Origins) > 0 {
			allowed = strings.Join(a.o.Origins, ", ")
		}
		httpError(w, http.StatusForbidden, "pages from "+quote(origin)+" may not use the LiveChess API (origins let in: "+
			allowed+"; arbiterd's configuration lists them)")
		return false
	}
	if origin != "" {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Add("Vary", "Origin")
	}
	return true
}

// preflight answers a browser's CORS preflight of an admitted origin,
// including Chrome's private network access question (a public page
// reading a service on this machine).
func preflight(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD")
	w.Header().Set("Access-Control-Max-Age", "600")
	if r.Header.Get("Access-Control-Request-Private-Network") == "true" {
		w.Header().Set("Access-Control-Allow-Private-Network", "true")
	}
	w.WriteHeader(http.StatusNoContent)
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
