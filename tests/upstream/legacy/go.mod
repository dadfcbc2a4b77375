// Marks tests/upstream/legacy as its own module root (so `go test ./...` in tests/upstream does
// not descend here). The real module files are go1NN.mod (121, 123, 125, 126, 129, 130, 132), one per line:
//   go build -modfile go126.mod -tags oracle126 .
module kubectl-topo/oracle-legacy

go 1.26.0
