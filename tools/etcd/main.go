// etcd for the e2e harness: the etcd server of the pinned release, started through its own
// command-line entry point (the same flags as the etcd binary).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
