//go:build oracle130

package main

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// 1.30–1.32 PreferClose gives a zone-less ready endpoint forZones [""] (endpointslice v0.30 trafficdist.go preferCloseHeuristic).
func TestPreferCloseEmptyZoneHint130(t *testing.T) {
	c := GenerateCase(1, 0) // only for its shape; the dump below is hand-made
	_ = c
	dump := []byte(`{"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"v1","kind":"Service","metadata":{"name":"svc","namespace":"default"},
  "spec":{"selector":{"app":"svc"},"clusterIP":"10.96.0.10","ipFamilies":["IPv4"],"trafficDistribution":"PreferClose",
          "ports":[{"name":"http","port":80,"protocol":"TCP"}]}},
 {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","addressType":"IPv4",
  "metadata":{"name":"svc-1","namespace":"default","labels":{"kubernetes.io/service-name":"svc","endpointslice.kubernetes.io/managed-by":"endpointslice-controller.k8s.io"}},
  "endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":true}},{"addresses":["10.0.0.2"],"zone":"zone-a","conditions":{"ready":true}}]}]}`)
	for _, v := range []struct {
		version, want string
	}{
		{"1.31", `{"svc-1/0/10.0.0.1":{"forZones":[""],"forNodes":null},"svc-1/1/10.0.0.2":{"forZones":["zone-a"],"forNodes":null}}`},
		{"1.30", `{"svc-1/0/10.0.0.1":null,"svc-1/1/10.0.0.2":null}`}, // gate off: hints removed
	} {
		res := RunCase(&Case{ID: v.version, K8sVersion: v.version, Runs: 4, Dump: dump})
		if res.Error != "" || len(res.Outcomes) != 1 {
			t.Fatalf("%s: %s %s", v.version, res.Error, res.Outcomes)
		}
		o := outcomes(t, res)[0]
		if got := canonical(o.Families[0].Fresh.Hints); got != v.want {
			t.Errorf("%s: hints %s, want %s", v.version, got, v.want)
		}
	}
	_ = corev1.ServiceTrafficDistributionPreferClose
}
