// Package peer is what the Go informer peers of bench/informer_bench share: the driver's line
// protocol, the memory reading, and a ListerWatcher that pauses the informer's watch.
//
// The protocol (the same as bench/informer_peer.cpp and bench/peer/informer.mjs):
//
//	argv: KUBECONFIG NAMESPACE EXPECTED_OBJECTS
//	-> "synced SECONDS RSS_BYTES_PER_OBJECT OBJECTS"  once the first list is in the cache
//	<- "resume N"                                   the driver made N updates meanwhile
//	-> "events EVENTS_PER_SECOND SECONDS ..."        once the handler saw the N updates
package peer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

// Args are the peer's command line.
type Args struct {
	Config    *rest.Config
	Namespace string
	Expected  int
}

// ParseArgs reads KUBECONFIG NAMESPACE EXPECTED_OBJECTS, exiting with a usage line when they
// are missing. The rest.Config is the kubeconfig's, with a client-side rate limit high enough
// never to delay the informer's requests.
func ParseArgs(name string) Args {
	if len(os.Args) < 4 {
		fmt.Fprintf(os.Stderr, "usage: %s KUBECONFIG NAMESPACE EXPECTED_OBJECTS\n", name)
		os.Exit(2)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Args[1])
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	cfg.QPS = 1000
	cfg.Burst = 2000
	expected, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fail("EXPECTED_OBJECTS: %v", err)
	}
	return Args{Config: cfg, Namespace: os.Args[2], Expected: expected}
}

// Counter counts the update events a handler receives and says when a target is reached.
type Counter struct {
	n      atomic.Int64
	target atomic.Int64
	first  atomic.Int64 // UnixNano of the first update after expect
	done   chan struct{}
}

// Handler counts OnUpdate calls (adds and deletes are not counted).
func (c *Counter) Handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{UpdateFunc: func(_, _ any) {
		n := c.n.Add(1)
		if n == 1 {
			c.first.Store(time.Now().UnixNano())
		}
		if n == c.target.Load() {
			close(c.done)
		}
	}}
}

func (c *Counter) expect(n int64) <-chan struct{} {
	c.done = make(chan struct{})
	c.n.Store(0)
	c.target.Store(n) // published after done and the reset
	return c.done
}

// Start builds and starts the informer under test and returns once its cache holds the
// first list, with that cache's store.
type Start func(ctx context.Context, pauser *Pauser, updates *Counter) (cache.Store, error)

// Run drives one informer through the protocol: the memory baseline, start and sync (timed),
// pause, the resident memory per cached object, then on "resume N" the time until N updates
// reached the handler. It exits the process.
func Run(a Args, start Start) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pauser := NewPauser()
	var updates Counter

	baseline := settledRSS()
	t0 := time.Now()
	store, err := start(ctx, pauser, &updates)
	if err != nil {
		fail("informer did not sync: %v", err)
	}
	syncSeconds := time.Since(t0).Seconds()
	pauser.Pause()
	perObject := float64(int64(settledRSS())-int64(baseline)) / float64(a.Expected)
	fmt.Printf("synced %.4f %.0f %d\n", syncSeconds, perObject, len(store.List()))

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) != 2 || fields[0] != "resume" {
			continue
		}
		n, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil || n <= 0 {
			fail("resume: bad count %q", fields[1])
		}
		done := updates.expect(n)
		t1 := time.Now()
		pauser.Resume()
		select {
		case <-done:
		case <-time.After(120 * time.Second):
			fail("saw %d of %d updates in 120 s", updates.n.Load(), n)
		}
		end := time.Now()
		secs := end.Sub(t1).Seconds()
		stream := end.Sub(time.Unix(0, updates.first.Load())).Seconds()
		fmt.Printf("events %.0f %.4f (first event after %.4f s, then %.0f events/s)\n", float64(n)/secs, secs, secs-stream,
			float64(n)/stream)
		break
	}
	cancel()
	os.Exit(0)
}

// settledRSS is the process's resident memory after a full garbage collection that returned
// the freed memory to the OS, as the node peer does with gc() and ours with malloc_trim.
func settledRSS() uint64 {
	runtime.GC()
	debug.FreeOSMemory()
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		fail("reading /proc/self/statm: %v", err)
	}
	fields := strings.Fields(string(statm))
	if len(fields) < 2 {
		fail("unexpected /proc/self/statm: %q", statm)
	}
	pages, err := strconv.ParseUint(fields[1], 10, 64)
	if err != nil {
		fail("unexpected /proc/self/statm: %q", statm)
	}
	return pages * uint64(os.Getpagesize())
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
