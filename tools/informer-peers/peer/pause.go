package peer

import (
	"context"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"
)

// Pauser pauses an informer's watch once and resumes it once, without restarting the informer,
// so that the updates made meanwhile reach it as they reach any informer whose watch was
// interrupted: its reflector watches again from its last resourceVersion and the server
// replays them.
//
// Wrap the informer's ListerWatcher with it. Until Resume, each watch it returns passes the
// library's watch events on through a goroutine of its own, so that Pause can end it: the
// upstream watch is stopped and the reflector, handed a bookmark at the resourceVersion it
// already has, sees the watch end normally (a watch that ends within a second without events
// would make it list everything again instead). The reflector's next Watch call blocks until
// Resume, and from then on the Watch calls return the library's own watches, unwrapped, so
// that what is measured after Resume is the library alone.
type Pauser struct {
	paused     chan struct{}
	resumed    chan struct{}
	pauseOnce  sync.Once
	resumeOnce sync.Once
}

// NewPauser returns a Pauser that has not paused yet.
func NewPauser() *Pauser {
	return &Pauser{paused: make(chan struct{}), resumed: make(chan struct{})}
}

// Pause ends the open watches and holds the next ones until Resume.
func (p *Pauser) Pause() { p.pauseOnce.Do(func() { close(p.paused) }) }

// Resume lets the held Watch call go on, from the resourceVersion the reflector reached.
func (p *Pauser) Resume() { p.resumeOnce.Do(func() { close(p.resumed) }) }

// Wrap returns lw paused by p. example is the informer's object type (bookmarks are of it).
func (p *Pauser) Wrap(lw cache.ListerWatcher, example runtime.Object) cache.ListerWatcher {
	return &pausableListerWatcher{inner: lw, withContext: cache.ToListerWatcherWithContext(lw), pauser: p,
		objectType: reflect.TypeOf(example).Elem()}
}

type pausableListerWatcher struct {
	inner       cache.ListerWatcher
	withContext cache.ListerWatcherWithContext
	pauser      *Pauser
	objectType  reflect.Type
}

var _ cache.ListerWatcherWithContext = &pausableListerWatcher{}

func (lw *pausableListerWatcher) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), options)
}

func (lw *pausableListerWatcher) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), options)
}

func (lw *pausableListerWatcher) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	return lw.withContext.ListWithContext(ctx, options)
}

// IsWatchListSemanticsUnSupported passes on what the wrapped ListerWatcher says, so that the
// reflector chooses between a streaming list and a plain list exactly as without the wrapper.
func (lw *pausableListerWatcher) IsWatchListSemanticsUnSupported() bool {
	return watchlist.DoesClientNotSupportWatchListSemantics(lw.inner)
}

func (lw *pausableListerWatcher) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	p := lw.pauser
	select {
	case <-p.paused:
		select {
		case <-p.resumed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	default:
	}
	w, err := lw.withContext.WatchWithContext(ctx, options)
	if err != nil {
		return nil, err
	}
	select {
	case <-p.resumed:
		return w, nil // no pause to come
	default:
	}
	pw := &pausableWatch{inner: w, out: make(chan watch.Event), stop: make(chan struct{})}
	go pw.forward(p.paused, options.ResourceVersion, lw.objectType)
	return pw, nil
}

// pausableWatch passes on the events of a watch until it is stopped or the pauser pauses.
type pausableWatch struct {
	inner     watch.Interface
	out       chan watch.Event
	stop      chan struct{}
	stopOnce  sync.Once
	innerOnce sync.Once
}

func (w *pausableWatch) ResultChan() <-chan watch.Event { return w.out }

func (w *pausableWatch) Stop() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.stopInner()
}

func (w *pausableWatch) stopInner() { w.innerOnce.Do(w.inner.Stop) }

// forward passes events on; rv is the resourceVersion the consumer has reached, that of the
// last event passed on (the watch's starting point before any).
func (w *pausableWatch) forward(paused <-chan struct{}, rv string, objectType reflect.Type) {
	defer close(w.out)
	in := w.inner.ResultChan()
	for {
		select {
		case ev, ok := <-in:
			if !ok {
				return
			}
			if m, err := meta.Accessor(ev.Object); err == nil {
				rv = m.GetResourceVersion()
			}
			select {
			case w.out <- ev:
			case <-w.stop:
				return
			}
		case <-paused:
			w.stopInner()
			if rv == "" {
				return // nothing known to bookmark: the reflector starts over, as after any lost watch
			}
			bookmark := reflect.New(objectType).Interface().(runtime.Object)
			if m, err := meta.Accessor(bookmark); err == nil {
				m.SetResourceVersion(rv)
			}
			select {
			case w.out <- watch.Event{Type: watch.Bookmark, Object: bookmark}:
			case <-w.stop:
			}
			return
		case <-w.stop:
			return
		}
	}
}
