// Command oracle runs the real upstream topology-hint code (k8s.io/endpointslice topologycache
// and trafficdist, k8s.io/kubernetes pkg/proxy) on cluster dumps and reports every outcome it can
// produce, and generates random cluster dumps. See README.md.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

const usage = `usage:
  oracle [--runs N] [--jobs J]      read cases as JSON Lines on stdin, write one result line each
                                    (in input order; J cases run in parallel, default 1)
  oracle --case FILE [--runs N]     run one case file (a Case object, or a bare v1 List dump)
  --adaptive-runs                   (both) run once when the path is not the annotation path
  oracle gen --seed S --count N [--start I]
                                    write N generated cases (JSON Lines) to stdout
  oracle gen-and-run --seed S --count N [--runs R] [--start I] [--fail-dir DIR]
                                    generate and run, print a coverage summary
  oracle all --dump FILE [--k8s-version 1.NN]
                                    decode a whole cluster dump once and recompute every
                                    Service's hints once (one cache; the benchmark baseline)
`

func main() {
	// Upstream code logs through klog; the oracle's output is its JSON only.
	klog.SetLogger(logr.Discard())
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "gen":
			os.Exit(cmdGen(os.Args[2:]))
		case "gen-and-run":
			os.Exit(cmdGenAndRun(os.Args[2:]))
		case "all":
			os.Exit(cmdAll(os.Args[2:]))
		case "-h", "--help", "help":
			fmt.Print(usage)
			return
		}
	}
	os.Exit(cmdRun(os.Args[1:]))
}

func cmdRun(args []string) int {
	fs := flag.NewFlagSet("oracle", flag.ContinueOnError)
	caseFile := fs.String("case", "", "run one case file")
	runs := fs.Int("runs", 0, "override every case's runs (0: the case's own, default 64)")
	jobs := fs.Int("jobs", 1, "batch mode: cases run in parallel (results stay in input order)")
	adaptive := fs.Bool("adaptive-runs", false, "run a case once when its path is not the annotation path (the only one whose outcome depends on Go map order)")
	fs.Usage = func() { fmt.Fprint(os.Stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if *caseFile != "" {
		c, err := readCaseFile(*caseFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if *runs > 0 {
			c.Runs = *runs
		}
		c.AdaptiveRuns = *adaptive
		res := RunCase(c)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		if res.Error != "" {
			return 1
		}
		return 0
	}
	if *jobs < 1 {
		*jobs = 1
	}
	// Batch: a reader decodes cases, up to `jobs` run at once, and results are written in input
	// order (each case gets a one-slot channel queued in order). The writer flushes after every
	// line so a caller streaming cases in and results out never waits on a full buffer.
	dec := json.NewDecoder(bufio.NewReader(os.Stdin))
	pending := make(chan chan *CaseResult, 4*(*jobs))
	slots := make(chan struct{}, *jobs)
	readErr := make(chan error, 1)
	go func() {
		defer close(pending)
		for {
			var c Case
			if err := dec.Decode(&c); err == io.EOF {
				readErr <- nil
				return
			} else if err != nil {
				readErr <- err
				return
			}
			if *runs > 0 {
				c.Runs = *runs
			}
			c.AdaptiveRuns = *adaptive
			done := make(chan *CaseResult, 1)
			pending <- done
			slots <- struct{}{}
			go func(c *Case) {
				done <- RunCase(c)
				<-slots
			}(&c)
		}
	}()
	failed := 0
	for done := range pending {
		res := <-done
		if res.Error != "" {
			failed++
		}
		_ = enc.Encode(res)
		_ = out.Flush()
	}
	if err := <-readErr; err != nil {
		fmt.Fprintln(os.Stderr, "reading case:", err)
		return 1
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d case(s) had errors\n", failed)
		return 1
	}
	return 0
}

// readCaseFile reads a Case, or a bare `v1 List` (then k8sVersion 1.36, 64 runs).
func readCaseFile(path string) (*Case, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Kind string          `json:"kind"`
		Dump json.RawMessage `json:"dump"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if probe.Kind == "List" && probe.Dump == nil {
		return &Case{ID: path, K8sVersion: "1.36", Runs: DefaultRuns, Dump: raw}, nil
	}
	var c Case
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.ID == "" {
		c.ID = path
	}
	return &c, nil
}

func elapsed(start time.Time) string { return time.Since(start).Round(time.Millisecond).String() }
