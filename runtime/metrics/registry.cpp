#include "runtime/metrics/registry.h"

#include <algorithm>
#include <exception>
#include <set>
#include <stdexcept>

#include "runtime/log/log.h"
#include "runtime/metrics/names.h"

namespace capstan::metrics {
namespace {

std::vector<std::string> sample_names(MetricType type, const std::string& name) {
  if (type == MetricType::Histogram) return {name, name + "_bucket", name + "_sum", name + "_count"};
  return {name};
}

std::string describe(MetricType type, const std::vector<std::string>& labels) {
  std::string out = std::string(type_name(type)) + " with labels [";
  for (std::size_t i = 0; i < labels.size(); ++i) out += (i ? ", " : "") + labels[i];
  return out + "]";
}

void validate_labels(MetricType type, std::string_view name, const std::vector<std::string>& labels) {
  std::set<std::string_view> seen;
  for (const auto& l : labels) {
    validate_label_name(l, name);
    if (type == MetricType::Histogram && l == "le") {
      throw std::invalid_argument("metrics: histogram \"" + std::string(name) + "\" cannot use the reserved label \"le\"");
    }
    if (!seen.insert(l).second) {
      throw std::invalid_argument("metrics: metric \"" + std::string(name) + "\" repeats label \"" + l + "\"");
    }
  }
}

}  // namespace

Registry::Registry() = default;
Registry::~Registry() = default;

Registry& Registry::global() {
  static Registry* registry = new Registry();  // leaked on purpose: outlives every static user
  return *registry;
}

FamilyBase* Registry::find_compatible(MetricType type, std::string_view name, std::string_view help,
                                      const std::vector<std::string>& label_names,
                                      const std::vector<double>& buckets) const {
  auto it = families_.find(name);
  if (it == families_.end()) return nullptr;
  const FamilyBase& f = *it->second;
  std::string prefix = "metrics: \"" + std::string(name) + "\" is already registered as " +
                       describe(f.type(), f.label_names());
  if (f.type() != type || f.label_names() != label_names) {
    throw std::invalid_argument(prefix + "; cannot register it again as " + describe(type, label_names));
  }
  if (f.help() != help) {
    throw std::invalid_argument(prefix + " and help \"" + f.help() + "\"; cannot register it again with help \"" +
                                std::string(help) + "\"");
  }
  if (f.buckets() != buckets) {
    throw std::invalid_argument(prefix + "; cannot register it again with different buckets");
  }
  return it->second.get();
}

void Registry::claim_sample_names(MetricType type, const std::string& name) {
  auto names = sample_names(type, name);
  for (const auto& s : names) {
    auto it = sample_owner_.find(s);
    if (it != sample_owner_.end()) {
      throw std::invalid_argument("metrics: cannot register \"" + name + "\": sample name \"" + s +
                                  "\" is already produced by \"" + it->second + "\"");
    }
  }
  for (const auto& s : names) sample_owner_.emplace(s, name);
}

template <typename M>
Family<M>& Registry::add_family(MetricType type, std::string_view name, std::string_view help,
                                std::vector<std::string> label_names, std::vector<double> buckets,
                                typename Family<M>::Factory make) {
  validate_metric_name(name);
  validate_labels(type, name, label_names);
  std::lock_guard lock(mu_);
  if (FamilyBase* existing = find_compatible(type, name, help, label_names, buckets)) {
    return static_cast<Family<M>&>(*existing);
  }
  std::string key(name);
  claim_sample_names(type, key);
  bool no_labels = label_names.empty();
  auto family = std::make_unique<Family<M>>(key, std::string(help), type, std::move(label_names), std::move(buckets),
                                            std::move(make));
  if (no_labels) family->with({});
  auto& ref = *family;
  families_.emplace(std::move(key), std::move(family));
  return ref;
}

CounterFamily& Registry::counter(std::string_view name, std::string_view help, std::vector<std::string> label_names) {
  return add_family<Counter>(MetricType::Counter, name, help, std::move(label_names), {},
                             [](const std::string& f) { return std::make_unique<Counter>(f); });
}

GaugeFamily& Registry::gauge(std::string_view name, std::string_view help, std::vector<std::string> label_names) {
  return add_family<Gauge>(MetricType::Gauge, name, help, std::move(label_names), {},
                           [](const std::string& f) { return std::make_unique<Gauge>(f); });
}

HistogramFamily& Registry::histogram(std::string_view name, std::string_view help,
                                     std::vector<std::string> label_names, std::vector<double> buckets) {
  auto bounds = std::make_shared<const std::vector<double>>(normalize_buckets(std::move(buckets), name));
  return add_family<Histogram>(MetricType::Histogram, name, help, std::move(label_names), *bounds,
                               [bounds](const std::string& f) { return std::make_unique<Histogram>(f, bounds); });
}

bool Registry::contains(std::string_view name) const {
  std::lock_guard lock(mu_);
  return families_.find(name) != families_.end();
}

Registry::CallbackId Registry::add_collect_callback(std::function<void()> fn) {
  if (!fn) throw std::invalid_argument("metrics: add_collect_callback needs a callable");
  std::lock_guard lock(callbacks_mu_);
  CallbackId id = next_callback_++;
  callbacks_.emplace(id, std::move(fn));
  return id;
}

void Registry::remove_collect_callback(CallbackId id) {
  std::lock_guard lock(callbacks_mu_);
  callbacks_.erase(id);
}

std::vector<FamilySnapshot> Registry::collect() const {
  {
    std::lock_guard lock(callbacks_mu_);
    for (const auto& [id, fn] : callbacks_) {
      try {
        fn();
      } catch (const std::exception& e) {
        log::warn("metrics collect callback failed", {{"callback", std::to_string(id)}, {"error", e.what()}});
      }
    }
  }
  std::vector<const FamilyBase*> families;
  {
    std::lock_guard lock(mu_);
    families.reserve(families_.size());
    for (const auto& [name, f] : families_) families.push_back(f.get());  // families are never removed
  }
  std::vector<FamilySnapshot> out;
  out.reserve(families.size());
  for (const FamilyBase* f : families) {
    FamilySnapshot s = f->snapshot();
    if (s.samples.empty()) continue;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace capstan::metrics
