#include "runtime/controller/predicate.h"

namespace capstan::controller {

Predicate generation_changed() {
  Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) { return a->generation() != b->generation(); };
  return p;
}

Predicate resource_version_changed() {
  Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) { return a->resource_version() != b->resource_version(); };
  return p;
}

Predicate label_selector(meta::LabelSelector selector) {
  auto sel = std::make_shared<meta::LabelSelector>(std::move(selector));
  Predicate p;
  p.create = [sel](const cache::ObjectPtr& o) { return sel->matches(o->labels()); };
  p.update = [sel](const cache::ObjectPtr&, const cache::ObjectPtr& b) { return sel->matches(b->labels()); };
  p.remove = [sel](const cache::ObjectPtr& o) { return sel->matches(o->labels()); };
  return p;
}

Predicate labels_changed() {
  Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) { return a->labels() != b->labels(); };
  return p;
}

Predicate annotations_changed() {
  Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    const json::Value va = a->value(), vb = b->value();
    const json::Value* x = json::find(va, {"metadata", "annotations"});
    const json::Value* y = json::find(vb, {"metadata", "annotations"});
    return (x ? *x : json::Value()) != (y ? *y : json::Value());
  };
  return p;
}

Predicate any_of(std::vector<Predicate> ps) {
  Predicate p;
  p.update = [ps](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    for (const auto& x : ps)
      if (x.on_update(a, b)) return true;
    return false;
  };
  return p;
}

}  // namespace capstan::controller
