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

namespace {
meta::Labels labels_of(const cache::CachedObject& o) {
  meta::Labels l;
  for (std::size_t i = 0; i < o.label_count(); ++i) {
    auto [k, v] = o.label(i);
    l.emplace(std::string(k), std::string(v));
  }
  return l;
}
}  // namespace

Predicate label_selector(meta::LabelSelector selector) {
  auto sel = std::make_shared<meta::LabelSelector>(std::move(selector));
  Predicate p;
  p.create = [sel](const cache::ObjectPtr& o) { return sel->matches(labels_of(*o)); };
  p.update = [sel](const cache::ObjectPtr&, const cache::ObjectPtr& b) { return sel->matches(labels_of(*b)); };
  p.remove = [sel](const cache::ObjectPtr& o) { return sel->matches(labels_of(*o)); };
  return p;
}

Predicate labels_changed() {
  Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) { return labels_of(*a) != labels_of(*b); };
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
