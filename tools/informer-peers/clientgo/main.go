// informer-peer-client-go: client-go's SharedIndexInformer as a peer in bench/informer_bench,
// over the ConfigMaps of one namespace, built as client-go's generated ConfigMap informer
// builds it (the clientset's List and Watch, the namespace index, no resync) and with client-go's
// defaults otherwise (JSON, the WatchListClient feature's streaming list). The protocol and the
// pause: package peer.
package main

import (
	"context"
	"errors"
	"log"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"capstan.dev/tools/informer-peers/peer"
)

func main() {
	a := peer.ParseArgs("informer-peer-client-go")
	client, err := kubernetes.NewForConfig(a.Config)
	if err != nil {
		log.Fatalf("clientset: %v", err)
	}
	configMaps := client.CoreV1().ConfigMaps(a.Namespace)
	peer.Run(a, func(ctx context.Context, pauser *peer.Pauser, updates *peer.Counter) (cache.Store, error) {
		lw := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return configMaps.List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				return configMaps.Watch(ctx, opts)
			},
		}, client)
		informer := cache.NewSharedIndexInformer(pauser.Wrap(lw, &corev1.ConfigMap{}), &corev1.ConfigMap{}, 0,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		if _, err := informer.AddEventHandler(updates.Handler()); err != nil {
			return nil, err
		}
		go informer.RunWithContext(ctx)
		// WaitFor, not WaitForCacheSync: the latter polls every 100 ms, which would time the poll.
		if !cache.WaitFor(ctx, "", informer.HasSyncedChecker()) {
			return nil, errors.New("stopped before the cache synced")
		}
		return informer.GetStore(), nil
	})
}
