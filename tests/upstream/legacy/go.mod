// Marks tests/upstream/legacy as its own module root (so `go test ./...` in tests/upstream does
// not descend here). The real module files are go126.mod, go129.mod and go132.mod, one per line:
//   go build -modfile go126.mod -tags oracle126 .
module kubectl-topo/oracle-legacy

go 1.26.0
