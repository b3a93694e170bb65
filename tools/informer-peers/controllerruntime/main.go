// informer-peer-controller-runtime: controller-runtime's cache as a peer in
// bench/informer_bench: a cache.Cache restricted to one namespace, the ConfigMap informer from
// GetInformer with a handler, as a controller's watch gets it, with controller-runtime's
// defaults otherwise (protobuf for built-in types, bookmarks, the 10 h resync, managedFields
// kept). Its informers are client-go's; the Options.NewInformer hook builds the same
// SharedIndexInformer over the ListerWatcher controller-runtime made, wrapped by the pauser.
// The protocol and the pause: package peer.
package main

import (
	"context"
	"errors"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"capstan.dev/tools/informer-peers/peer"
)

func main() {
	a := peer.ParseArgs("informer-peer-controller-runtime")
	crlog.SetLogger(logr.Discard())
	peer.Run(a, func(ctx context.Context, pauser *peer.Pauser, updates *peer.Counter) (toolscache.Store, error) {
		var informer toolscache.SharedIndexInformer
		c, err := crcache.New(a.Config, crcache.Options{
			DefaultNamespaces: map[string]crcache.Config{a.Namespace: {}},
			NewInformer: func(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
				informer = toolscache.NewSharedIndexInformer(pauser.Wrap(lw, obj), obj, resync, indexers)
				return informer
			},
		})
		if err != nil {
			return nil, err
		}
		configMaps, err := c.GetInformer(ctx, &corev1.ConfigMap{})
		if err != nil {
			return nil, err
		}
		if _, err := configMaps.AddEventHandler(updates.Handler()); err != nil {
			return nil, err
		}
		go func() { _ = c.Start(ctx) }()
		// WaitFor, not the cache's WaitForCacheSync: the latter polls every 100 ms, which would time the poll.
		if !toolscache.WaitFor(ctx, "", configMaps.HasSyncedChecker()) {
			return nil, errors.New("stopped before the cache synced")
		}
		return informer.GetStore(), nil
	})
}
