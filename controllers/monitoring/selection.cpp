#include "controllers/monitoring/selection.h"

#include "runtime/cache/informer.h"

#include <algorithm>

namespace capstan::monitoring {

Selection::Selection(const cache::Informer& namespaces, std::string own_ns, const std::optional<json::Value>& selector,
                     const std::optional<json::Value>& ns_selector)
    : namespaces_(namespaces), own_ns_(std::move(own_ns)) {
  if (selector) objects_ = meta::LabelSelector::from_json(&*selector);
  if (ns_selector) namespaces_selector_ = meta::LabelSelector::from_json(&*ns_selector);
}

Choice Selection::judge(const cache::CachedObject& o) const {
  if (!objects_ || !objects_->matches(o.labels())) return Choice::NotSelected;
  return namespace_chosen(o.ns()) ? Choice::Selected : Choice::NamespaceNotSelected;
}

std::vector<json::Value> Selection::pick(const cache::Informer& inf) const {
  std::vector<json::Value> out;
  if (!objects_) return out;
  auto all = inf.list();
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a->key() < b->key(); });
  for (const auto& o : all)
    if (judge(*o) == Choice::Selected) out.push_back(o->value());
  return out;
}

bool Selection::namespace_chosen(std::string_view ns) const {
  if (!namespaces_selector_) return ns == own_ns_;
  if (namespaces_selector_->empty()) return true;
  auto n = namespaces_.get("", ns);
  return n && namespaces_selector_->matches(n->labels());
}

}  // namespace capstan::monitoring
