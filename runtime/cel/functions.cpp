// Built-in functions: size, the string library (cel-go core + Kubernetes' strings extension),
// the Kubernetes list library, matches() on RE2, and the conversions' dispatch.
#include "runtime/cel/functions.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>

namespace capstan::cel {
namespace {

const std::vector<FunctionInfo> kFunctions = {
    {"size", {1}, {0}},
    {"int", {1}, {}},
    {"uint", {1}, {}},
    {"double", {1}, {}},
    {"string", {1}, {}},
    {"bytes", {1}, {}},
    {"bool", {1}, {}},
    {"dyn", {1}, {}},
    {"type", {1}, {}},
    {"duration", {1}, {}},
    {"timestamp", {1}, {}},
    {"matches", {2}, {1}},
    {"contains", {}, {1}},
    {"startsWith", {}, {1}},
    {"endsWith", {}, {1}},
    {"lowerAscii", {}, {0}},
    {"upperAscii", {}, {0}},
    {"trim", {}, {0}},
    {"split", {}, {1, 2}},
    {"join", {}, {0, 1}},
    {"indexOf", {}, {1, 2}},
    {"lastIndexOf", {}, {1, 2}},
    {"substring", {}, {1, 2}},
    {"replace", {}, {2, 3}},
    {"charAt", {}, {1}},
    {"isSorted", {}, {0}},
    {"sum", {}, {0}},
    {"min", {}, {0}},
    {"max", {}, {0}},
    {"reverse", {}, {0}},
};

// --- UTF-8 helpers: CEL indexes strings by code point.

std::vector<std::size_t> cp_offsets(std::string_view s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
  return out;
}

std::int64_t cp_index_of_byte(const std::vector<std::size_t>& offs, std::size_t byte) {
  return static_cast<std::int64_t>(std::lower_bound(offs.begin(), offs.end(), byte) - offs.begin());
}

bool is_space_at(std::string_view s, std::size_t i, std::size_t& len) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= '\t' && c <= '\r')) {
    len = 1;
    return true;
  }
  // Unicode White_Space beyond ASCII, as Go's strings.TrimSpace sees it.
  static constexpr std::string_view kSpaces[] = {
      "\xC2\x85", "\xC2\xA0", "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82", "\xE2\x80\x83",
      "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A",
      "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
  for (auto sp : kSpaces) {
    if (s.substr(i, sp.size()) == sp) {
      len = sp.size();
      return true;
    }
  }
  return false;
}

std::string trim_space(std::string_view s) {
  std::size_t b = 0, len = 0;
  while (b < s.size() && is_space_at(s, b, len)) b += len;
  std::size_t e = s.size();
  while (e > b) {
    // Step back one code point.
    std::size_t p = e - 1;
    while (p > b && (static_cast<unsigned char>(s[p]) & 0xC0) == 0x80) --p;
    if (is_space_at(s, p, len) && p + len == e) e = p;
    else break;
  }
  return std::string(s.substr(b, e - b));
}

Value index_error(std::int64_t i) { return Value::error("index out of range: " + std::to_string(i)); }

bool is_int(const Value& v) { return v.kind() == Kind::Int; }
bool is_str(const Value& v) { return v.kind() == Kind::String; }

Value size_of(const Value& v) {
  switch (v.kind()) {
    case Kind::String: return Value::integer(static_cast<std::int64_t>(code_points(v.as_string())));
    case Kind::Bytes: return Value::integer(static_cast<std::int64_t>(v.as_bytes().size()));
    case Kind::List: return Value::integer(static_cast<std::int64_t>(v.as_list().size()));
    case Kind::Map: return Value::integer(static_cast<std::int64_t>(v.as_map().size()));
    default: return no_such_overload("size");
  }
}

Value matches(const std::string& s, const Value& pattern, const re2::RE2* pre, Budget& budget) {
  budget.charge_size(s.size());
  if (pre) return Value::boolean(re2::RE2::PartialMatch(s, *pre));
  if (!is_str(pattern)) return no_such_overload("matches");
  re2::RE2::Options opts;
  opts.set_log_errors(false);
  opts.set_max_mem(8 << 20);
  re2::RE2 re(pattern.as_string(), opts);
  if (!re.ok()) return Value::error("invalid regular expression '" + pattern.as_string() + "': " + re.error());
  budget.charge_size(pattern.as_string().size() * 64);
  return Value::boolean(re2::RE2::PartialMatch(s, re));
}

Value split(const std::string& s, const std::string& sep, std::int64_t n, Budget& budget) {
  budget.charge_size(s.size());
  List out;
  if (n == 0) return Value::list({});
  if (sep.empty()) {
    auto offs = cp_offsets(s);
    std::size_t count = offs.size() - 1;
    for (std::size_t i = 0; i < count; ++i) {
      if (n > 0 && static_cast<std::int64_t>(out.size()) == n - 1) {
        out.push_back(Value::string(s.substr(offs[i])));
        return Value::list(std::move(out));
      }
      out.push_back(Value::string(s.substr(offs[i], offs[i + 1] - offs[i])));
    }
    budget.spent += static_cast<std::int64_t>(out.size());
    return Value::list(std::move(out));
  }
  std::size_t start = 0;
  for (;;) {
    if (n > 0 && static_cast<std::int64_t>(out.size()) == n - 1) break;
    auto at = s.find(sep, start);
    if (at == std::string::npos) break;
    out.push_back(Value::string(s.substr(start, at - start)));
    start = at + sep.size();
  }
  out.push_back(Value::string(s.substr(start)));
  budget.spent += static_cast<std::int64_t>(out.size());
  return Value::list(std::move(out));
}

Value join(const List& l, const std::string& sep, Budget& budget) {
  std::string out;
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (!is_str(l[i])) return no_such_overload("join");
    if (i) out += sep;
    out += l[i].as_string();
  }
  budget.charge_size(out.size());
  budget.spent += static_cast<std::int64_t>(l.size());
  return Value::string(std::move(out));
}

Value index_of(const std::string& s, const std::string& sub, std::int64_t offset, bool last, Budget& budget) {
  budget.charge_size(s.size());
  auto offs = cp_offsets(s);
  auto len = static_cast<std::int64_t>(offs.size() - 1);
  if (offset < 0 || offset > len) return index_error(offset);
  if (!last) {
    auto at = s.find(sub, offs[static_cast<std::size_t>(offset)]);
    return Value::integer(at == std::string::npos ? -1 : cp_index_of_byte(offs, at));
  }
  // lastIndexOf(sub, offset): the last occurrence starting at or before code point `offset`.
  std::size_t limit = offs[static_cast<std::size_t>(offset)];
  auto at = s.rfind(sub, limit);
  return Value::integer(at == std::string::npos ? -1 : cp_index_of_byte(offs, at));
}

Value substring(const std::string& s, std::int64_t start, std::optional<std::int64_t> end, Budget& budget) {
  budget.charge_size(s.size());
  auto offs = cp_offsets(s);
  auto len = static_cast<std::int64_t>(offs.size() - 1);
  std::int64_t e = end.value_or(len);
  if (start < 0 || start > len) return index_error(start);
  if (e < 0 || e > len) return index_error(e);
  if (start > e) return Value::error("invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(e));
  return Value::string(s.substr(offs[static_cast<std::size_t>(start)], offs[static_cast<std::size_t>(e)] - offs[static_cast<std::size_t>(start)]));
}

Value replace(const std::string& s, const std::string& from, const std::string& to, std::int64_t n, Budget& budget) {
  budget.charge_size(s.size());
  std::string out;
  std::size_t start = 0;
  std::int64_t done = 0;
  if (from.empty()) {
    // Go's strings.Replace with an empty old string inserts `to` before every code point and at the end.
    auto offs = cp_offsets(s);
    std::size_t runes = offs.size() - 1;
    for (std::size_t i = 0; i <= runes; ++i) {
      if (n >= 0 && done >= n) {
        out += s.substr(offs[i]);
        break;
      }
      out += to;
      ++done;
      budget.charge_size(to.size());
      if (i < runes) out += s.substr(offs[i], offs[i + 1] - offs[i]);
    }
    return Value::string(std::move(out));
  }
  for (;;) {
    if (n >= 0 && done >= n) break;
    auto at = s.find(from, start);
    if (at == std::string::npos) break;
    out.append(s, start, at - start);
    out += to;
    budget.charge_size(to.size());
    start = at + from.size();
    ++done;
  }
  out.append(s, start, std::string::npos);
  return Value::string(std::move(out));
}

Value char_at(const std::string& s, std::int64_t i) {
  auto offs = cp_offsets(s);
  auto len = static_cast<std::int64_t>(offs.size() - 1);
  if (i < 0 || i > len) return index_error(i);
  if (i == len) return Value::string("");
  return Value::string(s.substr(offs[static_cast<std::size_t>(i)], offs[static_cast<std::size_t>(i) + 1] - offs[static_cast<std::size_t>(i)]));
}

// Kubernetes list library: elements must be mutually comparable.
Value list_extreme(const List& l, bool want_max, std::string_view fn) {
  if (l.empty()) return Value::error(std::string(fn) + " called on empty list");
  const Value* best = &l[0];
  for (std::size_t i = 1; i < l.size(); ++i) {
    auto c = compare(l[i], *best);
    if (!c) return no_such_overload(fn);
    if ((want_max && *c == 1) || (!want_max && *c == -1)) best = &l[i];
  }
  return *best;
}

Value list_sum(const List& l) {
  if (l.empty()) return Value::integer(0);
  Kind k = l[0].kind();
  if (k == Kind::Int) {
    std::int64_t acc = 0;
    for (const auto& v : l) {
      if (v.kind() != Kind::Int) return no_such_overload("sum");
      if (__builtin_add_overflow(acc, v.as_int(), &acc)) return Value::error("integer overflow");
    }
    return Value::integer(acc);
  }
  if (k == Kind::Uint) {
    std::uint64_t acc = 0;
    for (const auto& v : l) {
      if (v.kind() != Kind::Uint) return no_such_overload("sum");
      if (__builtin_add_overflow(acc, v.as_uint(), &acc)) return Value::error("unsigned integer overflow");
    }
    return Value::uinteger(acc);
  }
  if (k == Kind::Double) {
    double acc = 0;
    for (const auto& v : l) {
      if (v.kind() != Kind::Double) return no_such_overload("sum");
      acc += v.as_double();
    }
    return Value::dbl(acc);
  }
  if (k == Kind::Duration) {
    std::int64_t acc = 0;
    for (const auto& v : l) {
      if (v.kind() != Kind::Duration) return no_such_overload("sum");
      if (__builtin_add_overflow(acc, v.as_duration(), &acc)) return Value::error("integer overflow");
    }
    return Value::duration(acc);
  }
  return no_such_overload("sum");
}

Value list_index_of(const List& l, const Value& x, bool last) {
  if (last) {
    for (std::size_t i = l.size(); i-- > 0;)
      if (equals(l[i], x)) return Value::integer(static_cast<std::int64_t>(i));
    return Value::integer(-1);
  }
  for (std::size_t i = 0; i < l.size(); ++i)
    if (equals(l[i], x)) return Value::integer(static_cast<std::int64_t>(i));
  return Value::integer(-1);
}

Value string_method(std::string_view name, const std::string& s, const std::vector<Value>& args, const re2::RE2* regex,
                    Budget& budget) {
  auto str_arg = [&](std::size_t i) -> const std::string* { return i < args.size() && is_str(args[i]) ? &args[i].as_string() : nullptr; };
  auto int_arg = [&](std::size_t i) -> std::optional<std::int64_t> {
    if (i < args.size() && is_int(args[i])) return args[i].as_int();
    return std::nullopt;
  };
  if (name == "size") return size_of(Value::string(s));
  if (name == "contains" || name == "startsWith" || name == "endsWith") {
    const auto* a = str_arg(0);
    if (!a) return no_such_overload(name);
    budget.charge_size(s.size());
    if (name == "contains") return Value::boolean(s.find(*a) != std::string::npos);
    if (name == "startsWith") return Value::boolean(s.compare(0, a->size(), *a) == 0 && s.size() >= a->size());
    return Value::boolean(s.size() >= a->size() && s.compare(s.size() - a->size(), a->size(), *a) == 0);
  }
  if (name == "matches") return matches(s, args.empty() ? Value() : args[0], regex, budget);
  if (name == "lowerAscii" || name == "upperAscii") {
    budget.charge_size(s.size());
    std::string out = s;
    for (auto& c : out) {
      if (name == "lowerAscii" && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (name == "upperAscii" && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return Value::string(std::move(out));
  }
  if (name == "trim") {
    budget.charge_size(s.size());
    return Value::string(trim_space(s));
  }
  if (name == "split") {
    const auto* sep = str_arg(0);
    auto n = args.size() == 2 ? int_arg(1) : std::optional<std::int64_t>(-1);
    if (!sep || !n) return no_such_overload(name);
    return split(s, *sep, *n, budget);
  }
  if (name == "indexOf" || name == "lastIndexOf") {
    const auto* sub = str_arg(0);
    bool last = name == "lastIndexOf";
    std::optional<std::int64_t> off = args.size() == 2 ? int_arg(1) : std::optional<std::int64_t>(last ? static_cast<std::int64_t>(code_points(s)) : 0);
    if (!sub || !off) return no_such_overload(name);
    return index_of(s, *sub, *off, last, budget);
  }
  if (name == "substring") {
    auto a = int_arg(0);
    std::optional<std::int64_t> b;
    if (args.size() == 2) {
      b = int_arg(1);
      if (!b) return no_such_overload(name);
    }
    if (!a) return no_such_overload(name);
    return substring(s, *a, b, budget);
  }
  if (name == "replace") {
    const auto* from = str_arg(0);
    const auto* to = str_arg(1);
    auto n = args.size() == 3 ? int_arg(2) : std::optional<std::int64_t>(-1);
    if (!from || !to || !n) return no_such_overload(name);
    return replace(s, *from, *to, *n, budget);
  }
  if (name == "charAt") {
    auto i = int_arg(0);
    if (!i) return no_such_overload(name);
    return char_at(s, *i);
  }
  return no_such_overload(name);
}

Value list_method(std::string_view name, const List& l, const std::vector<Value>& args, Budget& budget) {
  budget.spent += static_cast<std::int64_t>(l.size());
  if (name == "size") return Value::integer(static_cast<std::int64_t>(l.size()));
  if (name == "join") {
    if (!args.empty() && !is_str(args[0])) return no_such_overload(name);
    return join(l, args.empty() ? std::string() : args[0].as_string(), budget);
  }
  if (name == "isSorted") {
    for (std::size_t i = 1; i < l.size(); ++i) {
      auto c = compare(l[i - 1], l[i]);
      if (!c) return no_such_overload(name);
      if (*c == 1) return Value::boolean(false);
    }
    return Value::boolean(true);
  }
  if (name == "sum") return list_sum(l);
  if (name == "min") return list_extreme(l, false, name);
  if (name == "max") return list_extreme(l, true, name);
  if (name == "reverse") return Value::list(List(l.rbegin(), l.rend()));
  if ((name == "indexOf" || name == "lastIndexOf") && args.size() == 1) return list_index_of(l, args[0], name == "lastIndexOf");
  return no_such_overload(name);
}

}  // namespace

const FunctionInfo* find_function(std::string_view name) {
  for (const auto& f : kFunctions)
    if (f.name == name) return &f;
  return nullptr;
}

Value call_function(std::string_view name, const Value* target, const std::vector<Value>& args, const re2::RE2* regex,
                    Budget& budget) {
  if (!target) {
    const Value& a = args[0];
    if (name == "size") return size_of(a);
    if (name == "int") return to_int(a);
    if (name == "uint") return to_uint(a);
    if (name == "double") return to_double(a);
    if (name == "string") return to_string(a);
    if (name == "bytes") return to_bytes(a);
    if (name == "bool") return to_bool(a);
    if (name == "dyn") return a;
    if (name == "type") return type_of(a);
    if (name == "duration") return to_duration(a);
    if (name == "timestamp") return to_timestamp(a);
    if (name == "matches") {
      if (!is_str(a)) return no_such_overload(name);
      return matches(a.as_string(), args[1], regex, budget);
    }
    return no_such_overload(name);
  }
  switch (target->kind()) {
    case Kind::String: return string_method(name, target->as_string(), args, regex, budget);
    case Kind::List: return list_method(name, target->as_list(), args, budget);
    case Kind::Map:
    case Kind::Bytes:
      if (name == "size") return size_of(*target);
      return no_such_overload(name);
    default: return no_such_overload(name);
  }
}

}  // namespace capstan::cel
