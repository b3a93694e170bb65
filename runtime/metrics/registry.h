// A thread-safe set of metric families, plus callbacks run at collection time.
//
//   auto& reconciles = capstan::metrics::Registry::global().counter(
//       "controller_runtime_reconcile_total", "Total number of reconciliations per controller",
//       {"controller", "result"});
//   auto& ok = reconciles.with({"certificate", "success"});  // keep it; ok.inc() is lock-free
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/metrics/buckets.h"
#include "runtime/metrics/counter.h"
#include "runtime/metrics/family.h"
#include "runtime/metrics/gauge.h"
#include "runtime/metrics/histogram.h"
#include "runtime/metrics/snapshot.h"

namespace capstan::metrics {

class Registry {
 public:
  using CallbackId = std::uint64_t;

  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The process-wide registry served on /metrics. Never destroyed (safe to use from static destructors).
  static Registry& global();

  // Registers a family, or returns the existing one if the same definition (type, help, label names and,
  // for histograms, buckets) was registered before. Throws std::invalid_argument for an invalid metric or
  // label name, a reused name with a different definition, or a name clashing with another family's
  // samples (a histogram "x" owns x_bucket, x_sum and x_count). A family without labels exports its single
  // child (value 0) from the start.
  CounterFamily& counter(std::string_view name, std::string_view help, std::vector<std::string> label_names = {});
  GaugeFamily& gauge(std::string_view name, std::string_view help, std::vector<std::string> label_names = {});
  HistogramFamily& histogram(std::string_view name, std::string_view help, std::vector<std::string> label_names = {},
                             std::vector<double> buckets = default_buckets());

  bool contains(std::string_view name) const;

  // `fn` runs at the start of every collect(), to set values computed on scrape. Callbacks run one at a
  // time, in registration order; they may register families and update metrics but must not add or
  // remove callbacks. An exception from a callback is logged and collection goes on.
  CallbackId add_collect_callback(std::function<void()> fn);
  // After this returns the callback is not running and will not run again.
  void remove_collect_callback(CallbackId id);

  // Runs the callbacks, then copies every family (sorted by name). Families with labels and no children
  // are left out.
  std::vector<FamilySnapshot> collect() const;

 private:
  template <typename M>
  Family<M>& add_family(MetricType type, std::string_view name, std::string_view help,
                        std::vector<std::string> label_names, std::vector<double> buckets,
                        typename Family<M>::Factory make);
  // Under mu_: returns the existing family if identical, nullptr if the name is free; throws otherwise.
  FamilyBase* find_compatible(MetricType type, std::string_view name, std::string_view help,
                              const std::vector<std::string>& label_names, const std::vector<double>& buckets) const;
  void claim_sample_names(MetricType type, const std::string& name);

  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<FamilyBase>, std::less<>> families_;
  std::map<std::string, std::string, std::less<>> sample_owner_;  // exported sample name -> family name

  mutable std::mutex callbacks_mu_;
  std::map<CallbackId, std::function<void()>> callbacks_;
  CallbackId next_callback_ = 1;
};

}  // namespace capstan::metrics
