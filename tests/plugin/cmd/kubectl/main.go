// kubectl, as k8s.io/kubernetes/cmd/kubectl/kubectl.go builds it (v1.36), but from the
// k8s.io/kubectl staging module alone so the test suite need not compile k8s.io/kubernetes.
// The client auth plugins are left out: the tests never talk to a cluster.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	logs.GlogSetter(cmd.GetLogVerbosity(os.Args)) // nolint:errcheck
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
