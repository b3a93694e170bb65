#include "runtime/metrics/exposition.h"

#include <algorithm>
#include <numeric>

#include "runtime/metrics/format.h"
#include "runtime/metrics/registry.h"

namespace capstan::metrics {
namespace {

// Writes `{a="1",b="2"` (no closing brace) or nothing; label pairs in `order`.
void append_labels(std::string& out, const std::vector<std::string>& names, const std::vector<std::size_t>& order,
                   const std::vector<std::string>& values) {
  bool first = true;
  for (std::size_t i : order) {
    out += first ? '{' : ',';
    first = false;
    out += names[i];
    out += "=\"";
    append_escaped_label_value(out, values[i]);
    out += '"';
  }
}

void append_sample(std::string& out, const std::string& name, std::string_view suffix,
                   const std::vector<std::string>& label_names, const std::vector<std::size_t>& order,
                   const std::vector<std::string>& values, const std::string* le, const std::string& value) {
  out += name;
  out += suffix;
  append_labels(out, label_names, order, values);
  if (le) {
    out += order.empty() ? "{le=\"" : ",le=\"";
    out += *le;
    out += "\"}";
  } else if (!order.empty()) {
    out += '}';
  }
  out += ' ';
  out += value;
  out += '\n';
}

void append_family(std::string& out, const FamilySnapshot& f) {
  if (!f.help.empty()) {
    out += "# HELP ";
    out += f.name;
    out += ' ';
    append_escaped_help(out, f.help);
    out += '\n';
  }
  out += "# TYPE ";
  out += f.name;
  out += ' ';
  out += type_name(f.type);
  out += '\n';

  std::vector<std::size_t> order(f.label_names.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return f.label_names[a] < f.label_names[b]; });

  // Samples sorted by their label pairs in label-name order, as client_golang writes them.
  std::vector<const SampleSnapshot*> samples;
  samples.reserve(f.samples.size());
  for (const auto& s : f.samples) samples.push_back(&s);
  std::sort(samples.begin(), samples.end(), [&](const SampleSnapshot* a, const SampleSnapshot* b) {
    for (std::size_t i : order) {
      if (a->label_values[i] != b->label_values[i]) return a->label_values[i] < b->label_values[i];
    }
    return false;
  });

  if (f.type != MetricType::Histogram) {
    for (const SampleSnapshot* sp : samples) {
      const SampleSnapshot& s = *sp;
      append_sample(out, f.name, "", f.label_names, order, s.label_values, nullptr, format_value(s.value));
    }
    return;
  }
  std::vector<std::string> les;
  les.reserve(f.buckets.size() + 1);
  for (double b : f.buckets) les.push_back(format_value(b));
  les.push_back("+Inf");
  for (const SampleSnapshot* sp : samples) {
    const SampleSnapshot& s = *sp;
    for (std::size_t i = 0; i < f.buckets.size(); ++i) {
      std::uint64_t c = i < s.cumulative_counts.size() ? s.cumulative_counts[i] : 0;
      append_sample(out, f.name, "_bucket", f.label_names, order, s.label_values, &les[i], std::to_string(c));
    }
    std::string count = std::to_string(s.count);
    append_sample(out, f.name, "_bucket", f.label_names, order, s.label_values, &les.back(), count);
    append_sample(out, f.name, "_sum", f.label_names, order, s.label_values, nullptr, format_value(s.sum));
    append_sample(out, f.name, "_count", f.label_names, order, s.label_values, nullptr, count);
  }
}

}  // namespace

std::string render(const std::vector<FamilySnapshot>& families) {
  std::string out;
  for (const auto& f : families) append_family(out, f);
  return out;
}

std::string render(const Registry& registry) { return render(registry.collect()); }

}  // namespace capstan::metrics
