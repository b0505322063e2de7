// metropolis-helm-render: renders a Helm chart's templates the way Helm 3 does,
// without Helm: Go's text/template with the sprig functions (Helm's own template
// engine), plus the few functions of Helm's own that helm/README.md allows
// (include, required, toYaml), written here as Helm writes them. A template that
// uses anything outside that subset (tpl, lookup, .Files, .Capabilities, ...) fails
// to parse or to execute, so the chart cannot drift out of it unnoticed.
//
//	metropolis-helm-render --chart helm/metropolis [--values FILE]... [--release NAME]
//	    [--namespace NS] [--out FILE] [--json FILE] [--notes]
//
// --values files are coalesced over the chart's values.yaml in order, as
// `helm template -f` does (maps merge, a null deletes a key). The output is one YAML
// stream like `helm template` prints (every document under a "# Source:" line);
// --json also writes the parsed objects as a JSON array of {"source", "object"},
// parsed from that stream with the YAML library Kubernetes and Helm use
// (sigs.k8s.io/yaml, YAML 1.1 over gopkg.in/yaml.v2), for the validator.
//
// Built in GOPATH mode (GO111MODULE=off) against Debian's Go packages:
// golang-github-masterminds-sprig-dev and golang-k8s-sigs-yaml-dev.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"sigs.k8s.io/yaml"
)

type fileList []string

func (f *fileList) String() string     { return strings.Join(*f, ",") }
func (f *fileList) Set(v string) error { *f = append(*f, v); return nil }

// Helm's bound on nested include calls of one name (pkg/engine).
const recursionMax = 1000

func main() {
	chartDir := flag.String("chart", "", "the chart's folder (Chart.yaml, values.yaml, templates/)")
	var valueFiles fileList
	flag.Var(&valueFiles, "values", "a values file coalesced over values.yaml (repeatable)")
	release := flag.String("release", "metropolis", "release name (.Release.Name)")
	namespace := flag.String("namespace", "default", "namespace (.Release.Namespace)")
	upgrade := flag.Bool("upgrade", false, "render as an upgrade (.Release.IsUpgrade) rather than an install")
	out := flag.String("out", "", "write the YAML stream here (default: standard output)")
	jsonOut := flag.String("json", "", "also write the parsed objects here as JSON")
	notes := flag.Bool("notes", false, "print templates/NOTES.txt after the stream (to standard error)")
	flag.Parse()
	if *chartDir == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: metropolis-helm-render --chart DIR [--values FILE]... [--out FILE] [--json FILE]")
		os.Exit(2)
	}
	stream, notesText, err := render(*chartDir, valueFiles, *release, *namespace, *upgrade)
	if err != nil {
		fmt.Fprintln(os.Stderr, "render:", execErrorMessage(err))
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.WriteString(stream)
	} else if err := os.WriteFile(*out, []byte(stream), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
	if *notes {
		fmt.Fprint(os.Stderr, notesText)
	}
	if *jsonOut != "" {
		docs, err := parseStream(stream)
		if err != nil {
			fmt.Fprintln(os.Stderr, "render: the rendered stream is not valid YAML:", err)
			os.Exit(1)
		}
		data, err := json.MarshalIndent(docs, "", " ")
		if err == nil {
			err = os.WriteFile(*jsonOut, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "render:", err)
			os.Exit(1)
		}
	}
}

// readValues reads a values file as Helm's chartutil.ReadValues does: through
// sigs.k8s.io/yaml, so numbers are float64 (a 1000000 prints as 1e+06 in a
// template, exactly as with Helm).
func readValues(file string) (map[string]interface{}, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	vals := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &vals); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if vals == nil {
		vals = map[string]interface{}{}
	}
	return vals, nil
}

// coalesce merges src (the user's values) over dst (the chart's), as Helm's
// chartutil.CoalesceTables: maps merge key by key, anything else replaces, and a
// null removes the key.
func coalesce(dst, src map[string]interface{}) {
	for k, v := range src {
		if v == nil {
			delete(dst, k)
			continue
		}
		if sm, ok := v.(map[string]interface{}); ok {
			if dm, ok := dst[k].(map[string]interface{}); ok {
				coalesce(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// The functions of Helm's own (pkg/engine/funcs.go) that the chart may use.
func toYAML(v interface{}) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return "" // as Helm: errors are swallowed
	}
	return strings.TrimSuffix(string(data), "\n")
}

func required(warn string, val interface{}) (interface{}, error) {
	if val == nil {
		return val, errors.New(warn)
	}
	if s, ok := val.(string); ok && s == "" {
		return val, errors.New(warn)
	}
	return val, nil
}

func funcMap(root **template.Template) template.FuncMap {
	f := sprig.TxtFuncMap()
	// Helm removes these two: a chart must not read the environment of whoever renders it.
	delete(f, "env")
	delete(f, "expandenv")
	included := map[string]int{}
	f["include"] = func(name string, data interface{}) (string, error) {
		if included[name] > recursionMax {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		included[name]++
		defer func() { included[name]-- }()
		var buf strings.Builder
		err := (*root).ExecuteTemplate(&buf, name, data)
		return buf.String(), err
	}
	f["required"] = required
	f["toYaml"] = toYAML
	return f
}

func render(chartDir string, valueFiles []string, release, namespace string, upgrade bool) (string, string, error) {
	meta, err := readValues(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return "", "", err
	}
	name, _ := meta["name"].(string)
	if name == "" {
		return "", "", errors.New("Chart.yaml has no name")
	}
	// .Chart: the fields of Chart.yaml under their Go names, as Helm's chart.Metadata.
	chart := map[string]interface{}{}
	for k, v := range meta {
		chart[strings.ToUpper(k[:1])+k[1:]] = v
	}
	values, err := readValues(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return "", "", err
	}
	for _, file := range valueFiles {
		user, err := readValues(file)
		if err != nil {
			return "", "", err
		}
		coalesce(values, user)
	}

	// Every file under templates/ is parsed into one set, named
	// "<chart>/templates/<path>" as Helm names them; files whose name starts with
	// "_" only define templates, NOTES.txt is rendered apart from the manifests.
	var root *template.Template
	root = template.New("gotpl").Option("missingkey=zero").Funcs(funcMap(&root))
	templatesDir := filepath.Join(chartDir, "templates")
	var names []string
	err = filepath.WalkDir(templatesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(chartDir, p)
		tname := path.Join(name, filepath.ToSlash(rel))
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if _, err := root.New(tname).Parse(string(text)); err != nil {
			return err
		}
		names = append(names, tname)
		return nil
	})
	if err != nil {
		return "", "", err
	}
	sort.Strings(names)

	data := map[string]interface{}{
		"Values": values,
		"Chart":  chart,
		"Release": map[string]interface{}{
			"Name":      release,
			"Namespace": namespace,
			"IsInstall": !upgrade,
			"IsUpgrade": upgrade,
			"Revision":  1,
			"Service":   "Helm",
		},
	}
	var stream strings.Builder
	notes := ""
	for _, tname := range names {
		base := path.Base(tname)
		if strings.HasPrefix(base, "_") {
			continue
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, tname, data); err != nil {
			return "", "", err
		}
		// As Helm: a missing value printed as "<no value>" is an empty string.
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if base == "NOTES.txt" {
			notes = text
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		for _, doc := range splitManifests(text) {
			fmt.Fprintf(&stream, "---\n# Source: %s\n%s\n", tname, doc)
		}
	}
	return stream.String(), notes, nil
}

var (
	execLocation = regexp.MustCompile(`template: ([^\s]+:\d+:\d+): executing`)
	execCall     = regexp.MustCompile(`error calling (?:required|fail): `)
)

// execErrorMessage shortens the error of a `required` or `fail` as Helm does
// ("execution error at (file:line:col): message", the innermost place); other
// errors stay as text/template words them.
func execErrorMessage(err error) string {
	text := err.Error()
	calls := execCall.FindAllStringIndex(text, -1)
	places := execLocation.FindAllStringSubmatch(text, -1)
	if len(calls) == 0 || len(places) == 0 {
		return text
	}
	return fmt.Sprintf("execution error at (%s): %s", places[len(places)-1][1], text[calls[len(calls)-1][1]:])
}

var separator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// splitManifests cuts one template's output into its documents, dropping the
// empty ones (Helm's releaseutil.SplitManifests does the same).
func splitManifests(text string) []string {
	var docs []string
	for _, d := range separator.Split(text, -1) {
		if d = strings.TrimSpace(d); d != "" && !onlyComments(d) {
			docs = append(docs, d)
		}
	}
	return docs
}

func onlyComments(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

type parsedDoc struct {
	Source string                 `json:"source"`
	Object map[string]interface{} `json:"object"`
}

// parseStream reads the stream back as Kubernetes reads a manifest: each document
// through sigs.k8s.io/yaml's YAML-to-JSON conversion, which also refuses duplicate
// keys.
func parseStream(stream string) ([]parsedDoc, error) {
	var docs []parsedDoc
	for _, d := range separator.Split(stream, -1) {
		if strings.TrimSpace(d) == "" || onlyComments(d) {
			continue
		}
		source := ""
		if m := regexp.MustCompile(`(?m)^# Source: (.*)$`).FindStringSubmatch(d); m != nil {
			source = m[1]
		}
		var obj map[string]interface{}
		if err := yaml.UnmarshalStrict([]byte(d), &obj); err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if obj == nil {
			continue
		}
		docs = append(docs, parsedDoc{Source: source, Object: obj})
	}
	return docs, nil
}
