// Event filters for controller sources (controller-runtime's predicates).
#pragma once

#include "runtime/cache/object.h"
#include "runtime/meta/selector.h"

#include <functional>

namespace capstan::controller {

struct Predicate {
  std::function<bool(const cache::ObjectPtr&)> create;
  std::function<bool(const cache::ObjectPtr& old_obj, const cache::ObjectPtr& new_obj)> update;
  std::function<bool(const cache::ObjectPtr&)> remove;

  bool on_create(const cache::ObjectPtr& o) const { return !create || create(o); }
  bool on_update(const cache::ObjectPtr& a, const cache::ObjectPtr& b) const { return !update || update(a, b); }
  bool on_delete(const cache::ObjectPtr& o) const { return !remove || remove(o); }
};

// Updates pass only when metadata.generation changed (status-only writes are filtered).
Predicate generation_changed();
// Updates pass only when the resourceVersion changed (drops resyncs).
Predicate resource_version_changed();
// Objects pass only when their labels match.
Predicate label_selector(meta::LabelSelector selector);
// Updates pass when the labels changed / the annotations changed.
Predicate labels_changed();
Predicate annotations_changed();  // controller-runtime's AnnotationChangedPredicate
Predicate any_of(std::vector<Predicate> ps);  // update passes when one passes

}  // namespace capstan::controller
