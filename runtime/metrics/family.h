// A metric family: one name, help and label schema, and one child metric per distinct label-value tuple.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "runtime/metrics/snapshot.h"

namespace capstan::metrics {

class FamilyBase {
 public:
  virtual ~FamilyBase() = default;
  FamilyBase(const FamilyBase&) = delete;
  FamilyBase& operator=(const FamilyBase&) = delete;

  const std::string& name() const noexcept { return name_; }
  const std::string& help() const noexcept { return help_; }
  MetricType type() const noexcept { return type_; }
  const std::vector<std::string>& label_names() const noexcept { return label_names_; }
  const std::vector<double>& buckets() const noexcept { return buckets_; }  // histograms only

  // Visible children, sorted by label values.
  virtual FamilySnapshot snapshot() const = 0;

 protected:
  FamilyBase(std::string name, std::string help, MetricType type, std::vector<std::string> label_names,
             std::vector<double> buckets);
  // Throws std::invalid_argument naming the family if the number of values differs from the label names.
  void check_label_values(const std::vector<std::string>& values) const;
  FamilySnapshot empty_snapshot() const;

 private:
  std::string name_;
  std::string help_;
  MetricType type_;
  std::vector<std::string> label_names_;
  std::vector<double> buckets_;
};

template <typename M>
class Family final : public FamilyBase {
 public:
  using Factory = std::function<std::unique_ptr<M>(const std::string& family_name)>;

  Family(std::string name, std::string help, MetricType type, std::vector<std::string> label_names,
         std::vector<double> buckets, Factory make)
      : FamilyBase(std::move(name), std::move(help), type, std::move(label_names), std::move(buckets)),
        make_(std::move(make)) {}

  // The child for these label values (in label-name order), created on first use. The reference stays
  // valid for the lifetime of the registry that owns the family; keep it and update it without locks.
  M& with(const std::vector<std::string>& label_values) {
    {
      std::shared_lock lock(mu_);
      auto it = children_.find(label_values);
      if (it != children_.end() && it->second.visible) return *it->second.metric;
    }
    check_label_values(label_values);
    std::unique_lock lock(mu_);
    auto [it, inserted] = children_.try_emplace(label_values);
    if (inserted) it->second.metric = make_(name());
    it->second.visible = true;
    return *it->second.metric;
  }

  // Stops exporting a child (e.g. the object it described was deleted). The child object itself lives on,
  // so references already handed out stay valid; the next with() of the same values exports it again,
  // with its value kept. Returns whether a visible child was hidden.
  bool remove(const std::vector<std::string>& label_values) {
    std::unique_lock lock(mu_);
    auto it = children_.find(label_values);
    if (it == children_.end() || !it->second.visible) return false;
    it->second.visible = false;
    return true;
  }

  // Hides every child (see remove).
  void clear() {
    std::unique_lock lock(mu_);
    for (auto& [values, child] : children_) child.visible = false;
  }

  FamilySnapshot snapshot() const override {
    FamilySnapshot out = empty_snapshot();
    std::shared_lock lock(mu_);
    out.samples.reserve(children_.size());
    for (const auto& [values, child] : children_) {
      if (!child.visible) continue;
      SampleSnapshot& s = out.samples.emplace_back();
      s.label_values = values;
      child.metric->sample(s);
    }
    return out;
  }

 private:
  struct Child {
    std::unique_ptr<M> metric;
    bool visible = true;
  };

  Factory make_;
  mutable std::shared_mutex mu_;
  std::map<std::vector<std::string>, Child> children_;  // ordered: rendering is sorted by label values
};

class Counter;
class Gauge;
class Histogram;
using CounterFamily = Family<Counter>;
using GaugeFamily = Family<Gauge>;
using HistogramFamily = Family<Histogram>;

}  // namespace capstan::metrics
