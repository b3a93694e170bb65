#include "runtime/flags/flags.h"

#include "runtime/meta/time.h"

#include <sstream>
#include <string_view>
#include <utility>

namespace capstan::flags {

void FlagSet::add_custom(const std::string& name, std::function<void(const std::string&)> parse, const std::string& help,
                         const std::string& default_text, bool boolean) {
  flags_[name] = Flag{help, default_text, boolean, std::move(parse)};
  order_.push_back(name);
}

void FlagSet::add_string(const std::string& name, std::string* target, const std::string& help) {
  add_custom(name, [target](const std::string& v) { *target = v; }, help, *target);
}

bool parse_bool(const std::string& name, const std::string& v) {
  if (v == "true" || v == "1" || v.empty()) return true;
  if (v == "false" || v == "0") return false;
  throw UsageError("invalid boolean value \"" + v + "\" for --" + name);
}

void FlagSet::add_bool(const std::string& name, bool* target, const std::string& help) {
  add_custom(name, [name, target](const std::string& v) { *target = parse_bool(name, v); }, help, *target ? "true" : "false", true);
}

namespace {

// `v` read whole by `read` (std::stoll, std::stod), else a UsageError naming the flag.
template <typename T, typename Read>
T parse_whole(const std::string& name, const std::string& v, const char* what, Read read) {
  try {
    std::size_t used = 0;
    T out = read(v, &used);
    if (used == v.size()) return out;
  } catch (const std::exception&) {
  }
  throw UsageError("invalid " + std::string(what) + " \"" + v + "\" for --" + name);
}

}  // namespace

void FlagSet::add_int(const std::string& name, long long* target, const std::string& help, long long min, long long max) {
  add_custom(
      name,
      [name, target, min, max](const std::string& v) {
        auto n = parse_whole<long long>(name, v, "integer value", [](const std::string& s, std::size_t* used) { return std::stoll(s, used); });
        if (n < min || n > max)
          throw UsageError("--" + name + " must be between " + std::to_string(min) + " and " + std::to_string(max) + ", not " + v);
        *target = n;
      },
      help, std::to_string(*target));
}

void FlagSet::add_double(const std::string& name, double* target, const std::string& help) {
  std::ostringstream d;
  d << *target;
  add_custom(
      name,
      [name, target](const std::string& v) {
        *target = parse_whole<double>(name, v, "number", [](const std::string& s, std::size_t* used) { return std::stod(s, used); });
      },
      help, d.str());
}

std::vector<std::string> FlagSet::parse(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      positional.insert(positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    if (a == "-h" || a == "--help" || a == "-help") {
      help_ = true;
      continue;
    }
    if (a.size() < 2 || a[0] != '-') {
      positional.push_back(a);
      continue;
    }
    std::string body = a.substr(a[1] == '-' ? 2 : 1);
    std::string name = body, value;
    bool has_value = false;
    if (auto eq = body.find('='); eq != std::string::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    auto it = flags_.find(name);
    if (it == flags_.end()) throw UsageError("unknown flag: --" + name, usage());
    if (!has_value && !it->second.boolean) {
      if (i + 1 >= args.size()) throw UsageError("flag needs an argument: --" + name);
      value = args[++i];
    }
    it->second.set(value);
    changed_.insert(name);
  }
  return positional;
}

void FlagSet::set(const std::string& name, const std::string& value) {
  auto it = flags_.find(name);
  if (it == flags_.end()) throw UsageError("unknown flag: --" + name, usage());
  it->second.set(value);
  changed_.insert(name);
}

std::string FlagSet::usage() const {
  std::ostringstream out;
  out << "Flags:\n";
  if (order_.empty()) out << "      (none)\n";
  for (const auto& name : order_) {
    const auto& f = flags_.at(name);
    out << "      --" << name;
    if (!f.boolean) out << " value";
    out << "\n          " << f.help;
    if (!f.default_text.empty()) out << " (default " << (f.boolean ? f.default_text : "\"" + f.default_text + "\"") << ")";
    out << "\n";
  }
  return out.str();
}

void FlagSet::add_duration(const std::string& name, std::chrono::milliseconds* target, const std::string& help,
                           const std::string& default_text) {
  add_custom(
      name,
      [name, target](const std::string& v) {
        auto d = meta::parse_go_duration(v);
        if (!d || d->count() < 0)
          throw UsageError("invalid duration \"" + v + "\" for --" + name + " (use e.g. 500ms, 30s, 5m)");
        *target = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
      },
      help, default_text);
}

void FlagSet::add_bytes(const std::string& name, std::function<void(std::size_t)> set, const std::string& help,
                        const std::string& default_text) {
  add_custom(
      name,
      [name, set = std::move(set)](const std::string& v) {
        static const std::pair<std::string_view, unsigned long long> kSuffixes[] = {
            {"Ki", 1ULL << 10}, {"Mi", 1ULL << 20}, {"Gi", 1ULL << 30}, {"Ti", 1ULL << 40},
            {"k", 1000ULL},     {"M", 1000000ULL},  {"G", 1000000000ULL}, {"T", 1000000000000ULL}};
        std::size_t digits = 0;
        while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
        unsigned long long mult = 0;
        std::string_view suffix = std::string_view(v).substr(digits);
        if (suffix.empty()) mult = 1;
        for (const auto& [s, m] : kSuffixes)
          if (suffix == s) mult = m;
        if (digits == 0 || digits > 12 || mult == 0)
          throw UsageError("invalid size \"" + v + "\" for --" + name + " (use e.g. 256Mi, 1Gi or 0)");
        unsigned long long n = std::stoull(v.substr(0, digits));
        if (n > (1ULL << 50) / mult) throw UsageError("size \"" + v + "\" for --" + name + " is too large");
        set(static_cast<std::size_t>(n * mult));
      },
      help, default_text);
}

std::vector<std::string> split_csv(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto comma = s.find(',', start);
    auto item = s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace capstan::flags
