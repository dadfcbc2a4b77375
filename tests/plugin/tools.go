//go:build tools

// Pins krew and its manifest validator in go.mod so `go build sigs.k8s.io/krew/cmd/...` builds
// the versions recorded there.
package tools

import (
	_ "sigs.k8s.io/krew/cmd/krew"
	_ "sigs.k8s.io/krew/cmd/validate-krew-manifest"
)
