package config

import (
	"encoding"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// The file is checked against the Config type before it is decoded, so
// that a wrong key or a value of the wrong kind is reported with the
// setting's path, its line and what was expected, in the words of the
// configuration rather than of Go's types. Both formats are first turned
// into the same tree of nodes.

type nodeKind int

const (
	scalarNode nodeKind = iota
	mapNode
	listNode
)

// node is one value of a configuration file, whatever its format.
type node struct {
	kind nodeKind
	tag  string // scalars: "str", "int", "float", "bool", "null" or another type's name
	text string // scalars: the value as written (for messages)
	line int    // 1-based; 0 when not known

	keys     []string // mapNode: the keys in file order
	keyLines []int    // mapNode: each key's line
	vals     []*node  // mapNode: each key's value
	items    []*node  // listNode
}

// fromYAML builds the tree of a YAML value.
func fromYAML(n *yaml.Node) *node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return fromYAML(n.Content[0])
	}
	out := &node{line: n.Line}
	switch n.Kind {
	case yaml.MappingNode:
		out.kind = mapNode
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Tag == "!!merge" {
				// `<<: *anchor` merges the anchor's settings here.
				m := fromYAML(n.Content[i+1])
				out.keys = append(out.keys, m.keys...)
				out.keyLines = append(out.keyLines, m.keyLines...)
				out.vals = append(out.vals, m.vals...)
				continue
			}
			out.keys = append(out.keys, k.Value)
			out.keyLines = append(out.keyLines, k.Line)
			out.vals = append(out.vals, fromYAML(n.Content[i+1]))
		}
	case yaml.SequenceNode:
		out.kind = listNode
		for _, c := range n.Content {
			out.items = append(out.items, fromYAML(c))
		}
	default:
		out.kind = scalarNode
		out.text = n.Value
		out.tag = strings.TrimPrefix(n.ShortTag(), "!!")
	}
	return out
}

// fromTOML builds the tree of a decoded TOML value; lines gives the line
// of each setting path (tomlLines).
func fromTOML(v any, path string, lines map[string]int) *node {
	out := &node{line: lines[path]}
	switch v := v.(type) {
	case map[string]any:
		out.kind = mapNode
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			li, lj := lines[join(path, keys[i])], lines[join(path, keys[j])]
			if li != lj {
				return li < lj
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			p := join(path, k)
			out.keys = append(out.keys, k)
			out.keyLines = append(out.keyLines, lines[p])
			out.vals = append(out.vals, fromTOML(v[k], p, lines))
		}
	case []map[string]any:
		out.kind = listNode
		for i, m := range v {
			out.items = append(out.items, fromTOML(m, fmt.Sprintf("%s[%d]", path, i), lines))
		}
	case []any:
		out.kind = listNode
		for i, m := range v {
			out.items = append(out.items, fromTOML(m, fmt.Sprintf("%s[%d]", path, i), lines))
		}
	case string:
		out.tag, out.text = "str", v
	case int64:
		out.tag, out.text = "int", strconv.FormatInt(v, 10)
	case float64:
		out.tag, out.text = "float", strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		out.tag, out.text = "bool", strconv.FormatBool(v)
	default:
		out.tag, out.text = fmt.Sprintf("%T", v), fmt.Sprint(v)
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var (
	tomlTable = regexp.MustCompile(`^\[\s*([A-Za-z0-9_.\-" ]+?)\s*\]$`)
	tomlArray = regexp.MustCompile(`^\[\[\s*([A-Za-z0-9_.\-" ]+?)\s*\]\]$`)
	tomlKey   = regexp.MustCompile(`^([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*=`)
)

// tomlLines finds the line of every setting of a TOML file, by the paths
// the checks name (boards[1].clock.port). It reads the file's structure
// only — table headers and keys — and leaves the values to the decoder.
func tomlLines(data string) map[string]int {
	lines := map[string]int{}
	count := map[string]int{} // array of tables → elements so far
	table := ""
	// resolve turns a dotted table name into a path whose arrays of
	// tables name their latest element.
	resolve := func(name string) string {
		var p string
		for _, part := range strings.Split(name, ".") {
			part = strings.Trim(strings.TrimSpace(part), `"`)
			p = join(p, part)
			if n, ok := count[p]; ok {
				p = fmt.Sprintf("%s[%d]", p, n-1)
			}
		}
		return p
	}
	inMulti := "" // the delimiter of a multi-line string being skipped
	for i, l := range strings.Split(data, "\n") {
		n := i + 1
		l = strings.TrimSpace(l)
		if inMulti != "" {
			if strings.Contains(l, inMulti) {
				inMulti = ""
			}
			continue
		}
		if l == "" || l[0] == '#' {
			continue
		}
		if m := tomlArray.FindStringSubmatch(l); m != nil {
			parent := resolve(m[1])
			// The array itself: its last part names no element yet.
			if j := strings.LastIndex(parent, "["); j >= 0 && strings.HasSuffix(parent, "]") {
				parent = parent[:j]
			}
			if _, seen := lines[parent]; !seen {
				lines[parent] = n
			}
			count[parent]++
			table = fmt.Sprintf("%s[%d]", parent, count[parent]-1)
			lines[table] = n
			continue
		}
		if m := tomlTable.FindStringSubmatch(l); m != nil {
			table = resolve(m[1])
			if _, seen := lines[table]; !seen {
				lines[table] = n
			}
			continue
		}
		if m := tomlKey.FindStringSubmatch(l); m != nil {
			p := table
			for _, part := range strings.Split(m[1], ".") {
				p = join(p, strings.TrimSpace(part))
				if _, seen := lines[p]; !seen {
					lines[p] = n
				}
			}
			rest := l[len(m[0]):]
			for _, q := range []string{`"""`, `'''`} {
				if strings.Count(rest, q) == 1 {
					inMulti = q
				}
			}
		}
	}
	return lines
}

// tomlLine finds the line of a setting path, or of its nearest enclosing
// setting.
func tomlLine(lines map[string]int, field string) int {
	for p := field; p != ""; {
		if n, ok := lines[p]; ok {
			return n
		}
		switch i := strings.LastIndexAny(p, ".["); {
		case i < 0:
			p = ""
		default:
			p = p[:i]
		}
	}
	return 0
}

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	yamlUnmarshaler = reflect.TypeFor[yaml.Unmarshaler]()
)

// schema checks a tree against the Go type it decodes into and collects
// every mistake, each naming the setting and its line.
type schema struct{ errs []*Error }

// bad notes a mistake: the message of code with a (its English is the
// sentence as it always was).
func (s *schema) bad(field string, line int, code string, a ...any) {
	s.errs = append(s.errs, &Error{Field: field, Line: line, Err: i18n.Errorf(code, a...)})
}

// settingNames lists the settings a struct type has, by their key.
func settingNames(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if k := keyOf(t.Field(i)); k != "" {
			names = append(names, k)
		}
	}
	return names
}

func keyOf(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if k == "-" {
		return ""
	}
	if k == "" {
		k = strings.ToLower(f.Name)
	}
	return k
}

// what names a node's kind for a message (a message of the catalogs, or
// the value as written).
func what(n *node) any {
	switch n.kind {
	case mapNode:
		return i18n.M("config.what.section")
	case listNode:
		return i18n.M("config.what.list")
	}
	switch n.tag {
	case "str":
		return i18n.M("config.what.text", n.text)
	case "int", "float":
		return i18n.M("config.what.number", n.text)
	case "bool":
		return i18n.M("config.what.bool", n.text)
	case "null":
		return i18n.M("config.what.nothing")
	}
	return n.text
}

func (s *schema) check(field string, t reflect.Type, n *node, device bool) {
	if t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) ||
		t.Implements(yamlUnmarshaler) || reflect.PointerTo(t).Implements(yamlUnmarshaler) {
		return // the type reads its own value: its decoder says what is wrong
	}
	if n.kind == scalarNode && n.tag == "null" {
		return // an empty value: the setting's default, which validation judges
	}
	switch t.Kind() {
	case reflect.Pointer:
		s.check(field, t.Elem(), n, device)
	case reflect.Struct:
		s.checkSettings(field, t, n)
	case reflect.Slice:
		s.checkList(field, t, n, device)
	case reflect.Map:
		if n.kind != mapNode {
			s.bad(field, n.line, "config.want.settings", what(n))
			return
		}
		for i, v := range n.vals {
			s.check(join(field, n.keys[i]), t.Elem(), v, device)
		}
	case reflect.String:
		switch {
		case n.kind != scalarNode:
			s.bad(field, n.line, "config.want.value", what(n))
		case device && (n.tag == "int" || n.tag == "float"):
			s.bad(field, n.line, "config.want.port", what(n))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.checkWhole(field, n)
	case reflect.Float32, reflect.Float64:
		if n.kind != scalarNode || (n.tag != "int" && n.tag != "float") {
			s.bad(field, n.line, "config.want.number", what(n))
		}
	case reflect.Bool:
		if n.kind != scalarNode || n.tag != "bool" {
			s.bad(field, n.line, "config.want.bool", what(n))
		}
	}
}

// checkSettings checks the settings (key: value) of struct t: each key
// is one of its settings, and each value fits it.
func (s *schema) checkSettings(field string, t reflect.Type, n *node) {
	if n.kind != mapNode {
		s.bad(field, n.line, "config.want.settings", what(n))
		return
	}
	place := field // "": the file itself
	known := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		if k := keyOf(t.Field(i)); k != "" {
			known[k] = t.Field(i)
		}
	}
	for i, k := range n.keys {
		f, ok := known[k]
		if !ok {
			s.errs = append(s.errs, &Error{Field: join(field, k), Line: n.keyLines[i], Err: unknownKey(k, place, settingNames(t))})
			continue
		}
		s.check(join(field, k), f.Type, n.vals[i], f.Tag.Get("arbiterd") == "device")
	}
}

// checkList checks a list of slice type t, entry by entry.
func (s *schema) checkList(field string, t reflect.Type, n *node, device bool) {
	if n.kind != listNode {
		if t.Elem().Kind() == reflect.Struct || t.Elem().Kind() == reflect.Pointer {
			s.bad(field, n.line, "config.want.list-of", what(n), field)
		} else {
			s.bad(field, n.line, "config.want.list", what(n))
		}
		return
	}
	for i, it := range n.items {
		s.check(fmt.Sprintf("%s[%d]", field, i), t.Elem(), it, device)
	}
}

// checkWhole checks a whole number; a number written in quotes is told
// apart from other text.
func (s *schema) checkWhole(field string, n *node) {
	switch {
	case n.kind != scalarNode:
		s.bad(field, n.line, "config.want.whole", what(n))
	case n.tag == "float":
		s.bad(field, n.line, "config.want.whole.float", n.text)
	case n.tag == "str":
		if _, err := strconv.ParseFloat(strings.TrimSpace(n.text), 64); err == nil {
			s.bad(field, n.line, "config.want.whole.quoted", n.text)
		} else {
			s.bad(field, n.line, "config.want.whole.text", n.text)
		}
	case n.tag != "int":
		s.bad(field, n.line, "config.want.whole", what(n))
	}
}

// unknownKey is the error of a key the configuration does not have: it
// names the key and where it is, suggests the setting probably meant, and
// lists the settings that place has.
func unknownKey(key, place string, names []string) error {
	if s := closest(key, names); s != "" {
		return i18n.Errorf("config.unknown.did-you-mean", s)
	}
	if place == "" {
		return i18n.Errorf("config.unknown.here", strings.Join(names, ", "))
	}
	return i18n.Errorf("config.unknown.in", place, strings.Join(names, ", "))
}

// closest returns the name the key was probably meant to be: the same
// but for case, '_' and '-', or at most two edits away; "" if none.
func closest(key string, names []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
	}
	best, bestD := "", 3
	for _, n := range names {
		if norm(n) == norm(key) {
			return n
		}
		if d := editDistance(norm(key), norm(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
