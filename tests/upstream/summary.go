package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

func cmdGen(args []string) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "seed")
	count := fs.Uint64("count", 100, "number of cases")
	start := fs.Uint64("start", 0, "index of the first case")
	versions := fs.String("versions", "", "LO-HI: set each case's version to a minor in 1.LO … 1.HI (an older line's cases)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lo, hi := 0, 0
	if *versions != "" {
		var err error
		if lo, hi, err = parseVersions(*versions); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	fmt.Fprintf(os.Stderr, "oracle gen: seed %d, cases %d..%d\n", *seed, *start, *start+*count-1)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for i := *start; i < *start+*count; i++ {
		c := GenerateCase(*seed, i)
		if *versions != "" {
			if err := retarget(c, *seed, i, lo, hi); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		_ = enc.Encode(c)
	}
	return 0
}

// eventClass names an event by its constant (topologycache/event.go), without the addressType suffix.
func eventClass(e Event) string {
	m := e.Message
	switch {
	case strings.HasPrefix(m, "Topology Aware Hints has been enabled"):
		return "Enabled"
	case strings.HasPrefix(m, "Topology Aware Hints has been disabled"):
		return "Disabled"
	case strings.HasPrefix(m, "Insufficient Node information"):
		return "InsufficientNodeInfo"
	case strings.HasPrefix(m, "Nodes only ready in one zone"):
		return "NodesReadyInOneZoneOnly"
	case strings.HasPrefix(m, "Insufficient number of endpoints"):
		return "InsufficientNumberOfEndpoints"
	case strings.HasPrefix(m, "Unable to allocate minimum"):
		return "MinAllocationExceedsOverloadThreshold"
	case strings.HasPrefix(m, "One or more endpoints do not have a zone"):
		return "NoZoneSpecified"
	case strings.HasPrefix(m, "No hints allocated"):
		return "NoAllocatedHintsForZones"
	}
	return "other:" + m
}

// classify returns the coverage labels of one case result.
func classify(c *Case, res *CaseResult) []string {
	if res.Error != "" {
		return []string{"ERROR"}
	}
	labels := map[string]bool{"version " + res.K8sVersion: true}
	var outs []Outcome
	for _, raw := range res.Outcomes {
		var o Outcome
		_ = json.Unmarshal(raw, &o)
		outs = append(outs, o)
	}
	if len(outs) == 0 {
		return []string{"ERROR no outcome"}
	}
	o := outs[0]
	labels["path "+o.Path] = true
	if len(o.Families) == 2 {
		labels["families 2 (dual-stack or legacy headless)"] = true
	}
	if len(outs) > 1 {
		labels["nondeterministic: >1 outcome"] = true
		counts := map[string]bool{}
		for _, x := range outs {
			counts[canonical(countsOf(x))] = true
		}
		if len(counts) > 1 {
			labels["nondeterministic: per-zone counts differ (tie, W8)"] = true
		}
	}
	for _, x := range outs {
		if x.Overloaded {
			labels["overloaded after recheck"] = true
		}
		for _, f := range x.Families {
			for _, phase := range []struct {
				name string
				r    *Result
			}{{"steady", f.Steady}, {"fresh", f.Fresh}} {
				if phase.r == nil {
					continue
				}
				for _, e := range phase.r.Events {
					labels[fmt.Sprintf("%s %s event %s", o.Path, phase.name, eventClass(e))] = true
				}
			}
			if f.Steady != nil && o.Path != PathNone {
				if len(f.Steady.Changed) == 0 {
					labels[o.Path+" steady: nothing rewritten"] = true
				} else {
					labels[o.Path+" steady: slices rewritten"] = true
				}
			}
			if o.Path == PathAnnotation && f.Fresh != nil && f.Steady != nil &&
				len(f.Steady.Changed) == 0 && canonical(f.Steady.Counts) != canonical(f.Fresh.Counts) {
				labels["annotation: steady keeps counts a fresh sync would not write (W13)"] = true
			}
		}
	}
	if o.Path == PathTrafficDistribution {
		var td struct {
			Spec struct {
				TrafficDistribution *string `json:"trafficDistribution"`
			} `json:"spec"`
		}
		if cl, err := DecodeDump(c.Dump); err == nil && cl.Service.Spec.TrafficDistribution != nil {
			td.Spec.TrafficDistribution = cl.Service.Spec.TrafficDistribution
			labels["trafficDistribution heuristic "+*td.Spec.TrafficDistribution] = true
		}
	}
	// kube-proxy: did topology filter anything (a node sees fewer cluster endpoints than the
	// zone-less synthetic node), and was any (node, port) nondeterministic?
	for _, nodes := range res.Proxy {
		base := nodes[syntheticZonelessNode]
		for name, n := range nodes {
			for port, results := range n.Ports {
				if len(results) > 1 {
					labels["proxy: >1 result for a node (duplicate endpoints)"] = true
				}
				if base == nil {
					continue
				}
				var mine, theirs ProxyPort
				_ = json.Unmarshal(results[0], &mine)
				if b := base.Ports[port]; len(b) > 0 {
					_ = json.Unmarshal(b[0], &theirs)
				}
				if len(mine.Cluster) < len(theirs.Cluster) {
					if strings.HasPrefix(name, syntheticZonePrefix) {
						labels["proxy: zone filtering"] = true
					} else {
						labels["proxy: some filtering on a real node"] = true
					}
				}
				if mine.Cluster == nil {
					labels["proxy: no cluster list (iTP=Local)"] = true
				}
			}
		}
	}
	out := make([]string, 0, len(labels))
	for l := range labels {
		out = append(out, l)
	}
	return out
}

func countsOf(o Outcome) []map[string]int {
	var out []map[string]int
	for _, f := range o.Families {
		if f.Steady != nil {
			out = append(out, f.Steady.Counts)
		}
		if f.Fresh != nil {
			out = append(out, f.Fresh.Counts)
		}
	}
	return out
}

func cmdGenAndRun(args []string) int {
	fs := flag.NewFlagSet("gen-and-run", flag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "seed")
	count := fs.Uint64("count", 1000, "number of cases")
	start := fs.Uint64("start", 0, "index of the first case")
	runs := fs.Int("runs", DefaultRuns, "runs per case")
	failDir := fs.String("fail-dir", "", "write cases that errored here, one file each")
	jobs := fs.Int("jobs", 2, "cases run in parallel (the oracle is CPU-bound; upstream code keeps no global state but the feature gates, which only change with k8sVersion)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fmt.Printf("oracle gen-and-run: seed %d, cases %d..%d, %d runs each\n", *seed, *start, *start+*count-1, *runs)
	began := time.Now()
	hist := map[string]int{}
	errors := 0
	type done struct {
		c   *Case
		res *CaseResult
	}
	if *jobs < 1 {
		*jobs = 1
	}
	indexes := make(chan uint64)
	results := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < *jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range indexes {
				c := GenerateCase(*seed, i)
				c.Runs = *runs
				results <- done{c, RunCase(c)}
			}
		}()
	}
	go func() {
		for i := *start; i < *start+*count; i++ {
			indexes <- i
		}
		close(indexes)
		wg.Wait()
		close(results)
	}()
	finished := 0
	for d := range results {
		c, res := d.c, d.res
		if finished++; finished%2000 == 0 {
			fmt.Fprintf(os.Stderr, "  %d/%d cases, %s\n", finished, *count, elapsed(began))
		}
		if res.Error != "" {
			errors++
			fmt.Fprintf(os.Stderr, "case %s: %s\n", c.ID, res.Error)
			if *failDir != "" {
				_ = os.MkdirAll(*failDir, 0o755)
				raw, _ := json.Marshal(c)
				_ = os.WriteFile(filepath.Join(*failDir, c.ID+".json"), raw, 0o644)
			}
		}
		for _, l := range classify(c, res) {
			hist[l]++
		}
	}
	keys := make([]string, 0, len(hist))
	for k := range hist {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%8d  %5.1f%%  %s\n", hist[k], 100*float64(hist[k])/float64(*count), k)
	}
	fmt.Printf("cases %d, errors %d, time %s\n", *count, errors, elapsed(began))
	if errors > 0 {
		return 1
	}
	return 0
}
