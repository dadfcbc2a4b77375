package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// `gen --versions LO-HI`: the cases of the older lines (legacy/, one binary per line). The case
// is generated exactly as without the flag, then its k8sVersion is set to 1.LO … 1.HI (a pure
// function of seed and index) and the fields that version's API does not have are dropped, as
// its API server would never have stored them: spec.trafficDistribution before 1.30
// (k8s.io/api v0.30 ServiceSpec), endpoints[].hints.forNodes before 1.33 (v0.33 EndpointHints),
// and in 1.21 what an alpha gate (off) makes the API server drop on create (k/k v1.21.14
// pkg/registry dropDisabledFields): spec.internalTrafficPolicy (ServiceInternalTrafficPolicy)
// and the serving/terminating endpoint conditions (EndpointSliceTerminatingCondition).

// parseVersions reads "LO-HI" or "N" (minors).
func parseVersions(s string) (lo, hi int, err error) {
	a, b, found := strings.Cut(s, "-")
	if !found {
		b = a
	}
	if lo, err = strconv.Atoi(a); err == nil {
		hi, err = strconv.Atoi(b)
	}
	if err != nil || lo > hi {
		return 0, 0, fmt.Errorf("--versions %q: want LO-HI (minors, e.g. 27-29)", s)
	}
	return lo, hi, nil
}

// retarget sets case `index`'s version within lo…hi and drops what that API lacks.
func retarget(c *Case, seed, index uint64, lo, hi int) error {
	minor := lo + int((hashString(strconv.FormatUint(seed, 10)+"/"+strconv.FormatUint(index, 10)))%uint64(hi-lo+1))
	c.K8sVersion = fmt.Sprintf("1.%d", minor)
	var list map[string]any
	if err := json.Unmarshal(c.Dump, &list); err != nil {
		return err
	}
	items, _ := list["items"].([]any)
	for _, it := range items {
		item, _ := it.(map[string]any)
		switch item["kind"] {
		case "Service":
			if spec, ok := item["spec"].(map[string]any); ok && minor < 30 {
				delete(spec, "trafficDistribution")
				if minor < 22 {
					delete(spec, "internalTrafficPolicy")
				}
			}
		case "EndpointSlice":
			endpoints, _ := item["endpoints"].([]any)
			for _, e := range endpoints {
				ep, _ := e.(map[string]any)
				if hints, ok := ep["hints"].(map[string]any); ok && minor < 33 {
					delete(hints, "forNodes")
				}
				if conditions, ok := ep["conditions"].(map[string]any); ok && minor < 22 {
					delete(conditions, "serving")
					delete(conditions, "terminating")
				}
			}
		}
	}
	raw, err := json.Marshal(list)
	c.Dump = raw
	return err
}
