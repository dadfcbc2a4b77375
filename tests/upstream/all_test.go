//go:build !oracle130

package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/go-logr/logr"
	"sigs.k8s.io/yaml"
)

// `oracle all` on a one-Service dump agrees with the per-case runner's steady sync: same path,
// same written slices, same events (fixtures whose outcome does not depend on Go map order).
func TestAllAgreesWithRunCase(t *testing.T) {
	files, err := filepath.Glob("regressions/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	compared := 0
	for _, f := range files {
		c, err := readCaseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseBehaviour(c.K8sVersion)
		if err != nil {
			continue
		}
		res := RunCase(c)
		if len(res.Outcomes) != 1 {
			continue
		}
		var o Outcome
		if err := json.Unmarshal(res.Outcomes[0], &o); err != nil {
			t.Fatal(err)
		}
		d, err := DecodeWholeDump(c.Dump)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sum := RecomputeAll(logr.Discard(), b, d)
		if sum.Services != 1 || sum.Paths[o.Path] != 1 {
			t.Errorf("%s: paths %v, want one %s", f, sum.Paths, o.Path)
		}
		changed, events := 0, map[string]int{}
		for _, fam := range o.Families {
			if fam.Steady == nil {
				continue
			}
			changed += len(fam.Steady.Changed)
			for _, e := range fam.Steady.Events {
				events[e.Reason]++
			}
		}
		if o.Path == PathNone {
			changed = 0
		}
		if sum.ChangedSlices != changed {
			t.Errorf("%s: %d changed slices, RunCase %d", f, sum.ChangedSlices, changed)
		}
		if got, want := keys(sum.Events), keys(events); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: events %v, RunCase %v", f, sum.Events, events)
		}
		compared++
	}
	if compared == 0 {
		t.Fatal("no fixture compared")
	}
}

func keys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k, n := range m {
		for i := 0; i < n; i++ {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// A dump written as YAML decodes, through yamlToJSON (kubectl's `-f` conversion), to the same
// dump as its JSON.
func TestAllReadsYAMLAsKubectlDoes(t *testing.T) {
	files, err := filepath.Glob("regressions/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files[:min(len(files), 20)] {
		c, err := readCaseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		y, err := yaml.JSONToYAML(c.Dump)
		if err != nil {
			t.Fatal(err)
		}
		converted, err := yamlToJSON(y)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fromJSON, err := DecodeWholeDump(c.Dump)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fromYAML, err := DecodeWholeDump(converted)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(fromJSON, fromYAML) {
			t.Errorf("%s: the YAML decodes to another dump", f)
		}
	}
}
