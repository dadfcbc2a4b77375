package main

import (
	"encoding/json"
	"testing"
)

func outcomes(t *testing.T, res *CaseResult) []Outcome {
	t.Helper()
	var out []Outcome
	for _, raw := range res.Outcomes {
		var o Outcome
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}
