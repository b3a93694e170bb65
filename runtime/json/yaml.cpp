#include "runtime/json/yaml.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>

namespace capstan::json {
namespace {

bool is_null_word(const std::string& s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }
bool is_true_word(const std::string& s) { return s == "true" || s == "True" || s == "TRUE"; }
bool is_false_word(const std::string& s) { return s == "false" || s == "False" || s == "FALSE"; }

std::optional<Value> as_yaml_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  std::int64_t i = 0;
  auto begin = s.data();
  auto end = s.data() + s.size();
  const char* p = begin;
  if (*p == '+') ++p;
  auto r = std::from_chars(p, end, i);
  if (r.ec == std::errc() && r.ptr == end) return Value(i);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    r = std::from_chars(begin + 2, end, i, 16);
    if (r.ec == std::errc() && r.ptr == end) return Value(i);
  }
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o') {
    r = std::from_chars(begin + 2, end, i, 8);
    if (r.ec == std::errc() && r.ptr == end) return Value(i);
  }
  if (s == ".inf" || s == ".Inf" || s == "+.inf") return Value(HUGE_VAL);
  if (s == "-.inf" || s == "-.Inf") return Value(-HUGE_VAL);
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return Value(std::nan(""));
  // YAML 1.2 floats: digits with a '.' or an exponent.
  bool has_digit = false, fp = false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) has_digit = true;
    else if (c == '.' || c == 'e' || c == 'E') fp = true;
    else if (c != '-' && c != '+') return std::nullopt;
  }
  if (!has_digit || !fp) return std::nullopt;
  double d = 0;
  auto rd = std::from_chars(p, end, d);
  if (rd.ec == std::errc() && rd.ptr == end) return Value(d);
  return std::nullopt;
}

// What reading one YAML stream may build. yaml-cpp shares an anchored node between its aliases,
// but the JSON made from it is a tree: a few hundred bytes of nested aliases ("billion laughs")
// would expand to gigabytes. Legitimate YAML has fewer values than bytes, so the budget is a
// multiple of the input's size, with a floor for small documents and a ceiling for all.
class Budget {
 public:
  Budget(std::string_view what, std::size_t input_bytes, const QuotedStringHook* quoted = nullptr)
      : quoted(quoted),
        what_(what),
        max_values_(std::min(kMaxYamlValues, std::max<std::size_t>(10'000, 4 * input_bytes))),
        max_bytes_(std::min(kMaxYamlExpandedBytes, std::max<std::size_t>(1 << 20, 4 * input_bytes))),
        values_left_(max_values_),
        bytes_left_(max_bytes_) {}

  void value(std::size_t scalar_bytes, std::size_t depth) {
    if (depth > kMaxYamlDepth)
      throw ParseError("parsing " + what_ + ": nested more than " + std::to_string(kMaxYamlDepth) + " levels deep");
    if (values_left_ == 0 || scalar_bytes > bytes_left_)
      throw ParseError("parsing " + what_ + ": it expands to more than " + std::to_string(max_values_) + " values or " +
                       std::to_string(max_bytes_) + " bytes of scalars (the limits for its size; nested YAML aliases?)");
    --values_left_;
    bytes_left_ -= scalar_bytes;
  }
  const std::string& what() const { return what_; }
  const QuotedStringHook* quoted;

 private:
  std::string what_;
  std::size_t max_values_;
  std::size_t max_bytes_;
  std::size_t values_left_;
  std::size_t bytes_left_;
};

Value convert(const YAML::Node& n, Budget& budget, std::size_t depth) {
  budget.value(n.IsScalar() ? n.Scalar().size() : 0, depth);
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str") {
        if (!budget.quoted || !*budget.quoted) return Value(String(s));
        std::string copy = s;
        (*budget.quoted)(copy);
        return Value(String(copy));
      }
      if (n.Tag() == "?" || n.Tag().empty()) {
        if (is_null_word(s)) return nullptr;
        if (is_true_word(s)) return true;
        if (is_false_word(s)) return false;
        if (auto num = as_yaml_number(s)) {
          // JSON has no infinity or NaN: Boost.JSON would write them as `Infinity` / `NaN`, text
          // no JSON reader (ours included) accepts. Refused as sigs.k8s.io/yaml refuses them
          // ("json: unsupported value: +Inf"); quote the scalar to mean the string.
          if (num->is_double() && !std::isfinite(num->as_double()))
            throw ParseError("parsing " + budget.what() + ": " + s + " is not a number JSON can represent");
          return *num;
        }
      }
      return Value(String(s));
    }
    case YAML::NodeType::Sequence: {
      Array a;
      a.reserve(n.size());
      for (const auto& e : n) a.push_back(convert(e, budget, depth + 1));
      return a;
    }
    case YAML::NodeType::Map: {
      Object o;
      o.reserve(n.size());
      for (const auto& kv : n) {
        auto key = kv.first.as<std::string>();
        budget.value(key.size(), depth + 1);
        o[key] = convert(kv.second, budget, depth + 1);
      }
      return o;
    }
  }
  return nullptr;
}

// The first thing in `s` YAML may not contain, as go-yaml's reader checks it: an invalid UTF-8
// sequence (overlong forms, surrogates and code points past U+10FFFF included) or a control
// character other than tab, LF, CR and NEL. Returns the byte offset and what it is, or npos.
std::pair<std::size_t, std::string> unreadable_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return {i, "invalid UTF-8"};
    std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 0x2) return {i, "invalid UTF-8"};
      cp = (cp << 6) | (cc & 0x3f);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
      return {i, "invalid UTF-8"};
    bool control = (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || (cp >= 0x7f && cp <= 0x9f && cp != 0x85) ||
                   cp == 0xfffe || cp == 0xffff;
    if (control) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(cp));
      return {i, std::string("control character U+") + hex};
    }
    i += n;
  }
  return {std::string_view::npos, {}};
}

void check_size(std::string_view text, std::string_view what) {
  if (text.size() > kMaxYamlBytes)
    throw ParseError("parsing " + std::string(what) + ": " + std::to_string(text.size()) + " bytes is over the limit of " +
                     std::to_string(kMaxYamlBytes));
  // yaml-cpp passes invalid UTF-8 through, into JSON strings no JSON reader accepts, reads
  // bytes that look like a UTF-16 byte order mark as one, and text with NULs ("b\0\0\0") as
  // UTF-32, making invalid UTF-8 of valid input (all found by yaml_fuzz). Refused, as go-yaml
  // (kubectl, sigs.k8s.io/yaml) refuses them.
  if (auto [at, problem] = unreadable_at(text); at != std::string_view::npos)
    throw ParseError("parsing " + std::string(what) + ": " + problem + " at byte " + std::to_string(at));
}

bool plain_safe(std::string_view s) {
  if (s.empty()) return false;
  // A byte order mark at the start of the output would be read as one and dropped, and "..." or
  // "---" there would end or start a document ("..." read back as null: found by yaml_fuzz).
  if (s.starts_with("\xef\xbb\xbf") || s.starts_with("...") || s.starts_with("---")) return false;
  std::string str(s);
  if (is_null_word(str) || is_true_word(str) || is_false_word(str)) return false;
  // YAML 1.1 booleans some parsers still honour.
  static const char* const kOld[] = {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"};
  for (auto w : kOld)
    if (s == w) return false;
  if (as_yaml_number(str)) return false;
  unsigned char first = static_cast<unsigned char>(s.front());
  if (std::isspace(first) || std::isspace(static_cast<unsigned char>(s.back()))) return false;
  if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(static_cast<char>(first)) != std::string_view::npos) {
    // "-foo" is fine as a plain scalar unless it is followed by a space; keep it simple and quote.
    return false;
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c == ':' && (i + 1 == s.size() || s[i + 1] == ' ')) return false;
    if (c == '#' && i > 0 && s[i - 1] == ' ') return false;
  }
  return true;
}

void emit_scalar(std::string& out, const Value& v, int indent);

void emit_string(std::string& out, std::string_view s, int indent) {
  if (plain_safe(s)) {
    out += s;
    return;
  }
  bool multiline = s.find('\n') != std::string_view::npos;
  if (multiline) {
    bool printable = true;
    for (unsigned char c : s)
      if ((c < 0x20 && c != '\n') || c == 0x7f) printable = false;
    // Block scalars cannot carry leading spaces on the first line or trailing spaces reliably.
    // The first line that has content sets the indentation (so it cannot start with a space
    // even after empty lines), and newlines alone read back as "" (both found by
    // runtime/json/fuzz/yaml_fuzz.cpp: "\n" became "").
    std::size_t first = s.find_first_not_of('\n');
    if (printable && first != std::string_view::npos && s[first] != ' ' && s.find(" \n") == std::string_view::npos) {
      std::size_t trailing = 0;
      for (auto it = s.rbegin(); it != s.rend() && *it == '\n'; ++it) ++trailing;
      out += trailing == 0 ? "|-" : (trailing == 1 ? "|" : "|+");
      std::string pad(static_cast<std::size_t>(indent + 1) * 2, ' ');
      std::size_t start = 0;
      std::string_view body = s.substr(0, s.size() - (trailing > 0 ? 1 : 0));
      if (trailing > 1) body = s.substr(0, s.size() - 1);
      while (start <= body.size()) {
        auto nl = body.find('\n', start);
        std::string_view line = body.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        out += '\n';
        if (!line.empty()) {
          out += pad;
          out += line;
        }
        if (nl == std::string_view::npos) break;
        start = nl + 1;
      }
      return;
    }
  }
  out += capstan::json::serialize(Value(String(s)));
}

void emit_scalar(std::string& out, const Value& v, int indent) {
  switch (v.kind()) {
    case boost::json::kind::null: out += "null"; break;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; break;
    case boost::json::kind::string: emit_string(out, v.get_string(), indent); break;
    default: out += capstan::json::serialize(v);
  }
}

bool is_empty_container(const Value& v) {
  return (v.is_object() && v.get_object().empty()) || (v.is_array() && v.get_array().empty());
}

void emit(std::string& out, const Value& v, int indent);

constexpr std::size_t kMaxImplicitKey = 1024;

void emit_key(std::string& out, std::string_view key) {
  if (plain_safe(key)) out += key;
  else out += capstan::json::serialize(Value(String(key)));
}

void emit_object(std::string& out, const Object& o, int indent, bool first_inline) {
  std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  bool first = true;
  for (const auto& kv : o) {
    if (!(first && first_inline)) out += pad;
    first = false;
    const Value& val = kv.value();
    std::string key;
    emit_key(key, kv.key());
    if (key.size() > kMaxImplicitKey) {
      // YAML allows implicit ("key: value") keys of at most 1024 characters; a longer one is
      // written as an explicit "? key" with its value below, indented (found by yaml_fuzz).
      out += "? " + key + '\n' + pad + ':';
      if (val.is_object() && !val.get_object().empty()) {
        out += '\n';
        emit_object(out, val.get_object(), indent + 1, false);
      } else if (val.is_array() && !val.get_array().empty()) {
        out += '\n';
        emit(out, val, indent + 1);
      } else {
        out += ' ';
        if (is_empty_container(val)) out += val.is_object() ? "{}" : "[]";
        else emit_scalar(out, val, indent);
        out += '\n';
      }
      continue;
    }
    out += key;
    out += ':';
    if (val.is_object() && !val.get_object().empty()) {
      out += '\n';
      emit_object(out, val.get_object(), indent + 1, false);
    } else if (val.is_array() && !val.get_array().empty()) {
      out += '\n';
      emit(out, val, indent);  // sequences under a key sit at the key's indentation, as kubectl prints them
    } else {
      out += ' ';
      if (is_empty_container(val)) out += val.is_object() ? "{}" : "[]";
      else emit_scalar(out, val, indent);
      out += '\n';
    }
  }
}

void emit(std::string& out, const Value& v, int indent) {
  std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  if (v.is_object()) {
    if (v.get_object().empty()) {
      out += pad + "{}\n";
      return;
    }
    emit_object(out, v.get_object(), indent, false);
    return;
  }
  if (v.is_array()) {
    if (v.get_array().empty()) {
      out += pad + "[]\n";
      return;
    }
    for (const auto& e : v.get_array()) {
      out += pad + "- ";
      if (e.is_object() && !e.get_object().empty()) {
        emit_object(out, e.get_object(), indent + 1, true);
      } else if (e.is_array() && !e.get_array().empty()) {
        out += '\n';
        emit(out, e, indent + 1);
      } else {
        if (is_empty_container(e)) out += e.is_object() ? "{}" : "[]";
        else emit_scalar(out, e, indent + 1);
        out += '\n';
      }
    }
    return;
  }
  out += pad;
  emit_scalar(out, v, indent);
  out += '\n';
}

}  // namespace

Value from_yaml(std::string_view text, std::string_view what) {
  check_size(text, what);
  try {
    Budget budget(what, text.size());
    return convert(YAML::Load(std::string(text)), budget, 0);
  } catch (const YAML::Exception& e) {
    throw ParseError("parsing " + std::string(what) + ": " + e.what());
  }
}

namespace {

// yaml-cpp 0.7's LoadAll never returns on a stream with a ',' where a document's content
// should start (",a", "a: 1\n---\n,"): its parser hands out the same empty document forever
// without consuming the ',' (found by runtime/json/fuzz/yaml_fuzz.cpp; one such file in a Git
// repository, or one YAML request body, held a thread for good). A first pass over the
// parser's events stops at a document that starts where the previous one did.
class ProgressCheck : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> stuck_at;

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (started_ && mark.pos == last_.pos) stuck_at = mark;
    started_ = true;
    last_ = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  bool started_ = false;
  YAML::Mark last_;
};

void check_progress(const std::string& text, std::string_view what) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  ProgressCheck check;
  while (parser.HandleNextDocument(check)) {
    if (check.stuck_at)
      throw ParseError("parsing " + std::string(what) + ": unexpected ',' at line " + std::to_string(check.stuck_at->line + 1) +
                       ", column " + std::to_string(check.stuck_at->column + 1));
  }
}

}  // namespace

std::vector<Value> from_yaml_documents(std::string_view text, std::string_view what) { return from_yaml_documents(text, what, nullptr); }

std::vector<Value> from_yaml_documents(std::string_view text, std::string_view what, const QuotedStringHook& quoted) {
  check_size(text, what);
  std::vector<Value> docs;
  try {
    check_progress(std::string(text), what);
    // One budget for the stream: aliases cannot cross documents, but many small documents
    // are bounded by the stream's size all the same.
    Budget budget(what, text.size(), &quoted);
    for (const auto& node : YAML::LoadAll(std::string(text))) {
      Value v = convert(node, budget, 0);
      if (v.is_null()) continue;
      docs.push_back(std::move(v));
    }
  } catch (const YAML::Exception& e) {
    throw ParseError("parsing " + std::string(what) + ": " + e.what());
  }
  return docs;
}

std::string to_yaml(const Value& v) {
  std::string out;
  emit(out, v, 0);
  return out;
}

}  // namespace capstan::json
