#include "runtime/metrics/family.h"

#include <stdexcept>

namespace capstan::metrics {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += "\"" + v[i] + "\"";
  }
  return out + "]";
}

}  // namespace

FamilyBase::FamilyBase(std::string name, std::string help, MetricType type, std::vector<std::string> label_names,
                       std::vector<double> buckets)
    : name_(std::move(name)),
      help_(std::move(help)),
      type_(type),
      label_names_(std::move(label_names)),
      buckets_(std::move(buckets)) {}

void FamilyBase::check_label_values(const std::vector<std::string>& values) const {
  if (values.size() != label_names_.size()) {
    throw std::invalid_argument("metrics: " + std::string(type_name(type_)) + " \"" + name_ + "\" has labels " +
                                join(label_names_) + " but got " + std::to_string(values.size()) +
                                " values " + join(values));
  }
}

FamilySnapshot FamilyBase::empty_snapshot() const {
  FamilySnapshot out;
  out.name = name_;
  out.help = help_;
  out.type = type_;
  out.label_names = label_names_;
  out.buckets = buckets_;
  return out;
}

}  // namespace capstan::metrics
