#include "runtime/meta/selector.h"

#include "runtime/meta/names.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <tuple>

namespace capstan::meta {
namespace {

// ---- labels.Parse: a lexer and a recursive-descent parser with apimachinery's grammar ----

enum class Tok { Error, EndOfString, ClosedPar, Comma, DoesNotExist, DoubleEquals, Equals, GreaterThan, Identifier, In,
                 LessThan, NotEquals, NotIn, OpenPar };

struct Item {
  Tok tok;
  std::string lit;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_special(char c) { return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<'; }

std::optional<Tok> literal_token(std::string_view s) {
  static const std::pair<std::string_view, Tok> table[] = {
      {")", Tok::ClosedPar}, {",", Tok::Comma},       {"!", Tok::DoesNotExist}, {"==", Tok::DoubleEquals},
      {"=", Tok::Equals},    {">", Tok::GreaterThan}, {"in", Tok::In},          {"<", Tok::LessThan},
      {"!=", Tok::NotEquals}, {"notin", Tok::NotIn},  {"(", Tok::OpenPar}};
  for (const auto& [text, tok] : table)
    if (text == s) return tok;
  return std::nullopt;
}

std::vector<Item> lex(std::string_view s) {
  std::vector<Item> out;
  std::size_t i = 0;
  for (;;) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size()) {
      out.push_back({Tok::EndOfString, ""});
      return out;
    }
    if (is_special(s[i])) {
      // The longest run of special characters that is still a token.
      std::string buf;
      std::optional<Item> last;
      while (i < s.size() && is_special(s[i])) {
        buf += s[i];
        if (auto t = literal_token(buf)) {
          last = Item{*t, buf};
          ++i;
        } else if (last) {
          break;
        } else {
          ++i;
        }
      }
      out.push_back(last ? *last : Item{Tok::Error, "error expected: keyword found '" + buf + "'"});
      continue;
    }
    std::size_t start = i;
    while (i < s.size() && !is_special(s[i]) && !is_space(s[i])) ++i;
    std::string word(s.substr(start, i - start));
    auto t = literal_token(word);
    out.push_back({t ? *t : Tok::Identifier, word});
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : items_(lex(text)) {}

  std::vector<Requirement> parse() {
    std::vector<Requirement> reqs;
    for (;;) {
      auto [tok, lit] = peek();
      if (tok == Tok::EndOfString) return reqs;
      if (tok != Tok::Identifier && tok != Tok::DoesNotExist)
        throw SelectorError("found '" + lit + "', expected: !, identifier, or 'end of string'");
      try {
        reqs.push_back(requirement());
      } catch (const SelectorError& e) {
        throw SelectorError(std::string("unable to parse requirement: ") + e.what());
      }
      auto [t, l] = next();
      if (t == Tok::EndOfString) return reqs;
      if (t != Tok::Comma) throw SelectorError("found '" + l + "', expected: ',' or 'end of string'");
      auto [t2, l2] = peek();
      if (t2 != Tok::Identifier && t2 != Tok::DoesNotExist) throw SelectorError("found '" + l2 + "', expected: identifier after ','");
    }
  }

 private:
  // In value positions the keywords are plain words.
  static Item as_value(Item it) {
    if (it.tok == Tok::In || it.tok == Tok::NotIn) it.tok = Tok::Identifier;
    return it;
  }
  Item peek(bool values = true) const { return values ? as_value(items_[pos_]) : items_[pos_]; }
  Item next(bool values = true) {
    Item it = items_[pos_];
    if (pos_ + 1 < items_.size()) ++pos_;
    return values ? as_value(it) : it;
  }

  Requirement requirement() {
    Requirement r;
    bool not_exists = false;
    Item first = next();
    if (first.tok == Tok::DoesNotExist) {
      not_exists = true;
      first = next();
    }
    const auto& [tok, lit] = first;
    if (tok != Tok::Identifier) throw SelectorError("found '" + lit + "', expected: identifier");
    r.key = lit;
    check_key(r.key);
    auto following = peek().tok;
    if (not_exists || following == Tok::EndOfString || following == Tok::Comma) {
      r.op = not_exists ? Requirement::Op::DoesNotExist : Requirement::Op::Exists;
      return r;
    }
    auto [op, oplit] = next(false);
    switch (op) {
      case Tok::In: r.op = Requirement::Op::In; break;
      case Tok::NotIn: r.op = Requirement::Op::NotIn; break;
      case Tok::Equals:
      case Tok::DoubleEquals: r.op = Requirement::Op::Equals; break;
      case Tok::NotEquals: r.op = Requirement::Op::NotEquals; break;
      case Tok::GreaterThan: r.op = Requirement::Op::GreaterThan; break;
      case Tok::LessThan: r.op = Requirement::Op::LessThan; break;
      default: throw SelectorError("found '" + oplit + "', expected: in, notin, =, ==, !=, gt, lt");
    }
    if (r.op == Requirement::Op::In || r.op == Requirement::Op::NotIn) r.values = set_values();
    else r.values = {exact_value()};
    check_values(r);
    return r;
  }

  std::vector<std::string> set_values() {
    Item open = next();
    if (open.tok != Tok::OpenPar) throw SelectorError("found '" + open.lit + "' expected: '('");
    auto [tok, lit] = peek();
    std::vector<std::string> vals;
    if (tok == Tok::ClosedPar) {
      next();
      return {""};
    }
    if (tok != Tok::Identifier && tok != Tok::Comma) throw SelectorError("found '" + lit + "', expected: ',', ')' or identifier");
    for (;;) {
      auto [t, l] = next();
      if (t == Tok::Identifier) {
        add(vals, l);
        auto [t2, l2] = peek();
        if (t2 == Tok::Comma) continue;
        if (t2 == Tok::ClosedPar) break;
        throw SelectorError("found '" + l2 + "', expected: ',' or ')'");
      } else if (t == Tok::Comma) {
        if (vals.empty()) add(vals, "");
        auto t2 = peek().tok;
        if (t2 == Tok::ClosedPar) {
          add(vals, "");
          break;
        }
        if (t2 == Tok::Comma) add(vals, "");
      } else {
        throw SelectorError("found '" + l + "', expected: ',', or identifier");
      }
    }
    if (next().tok != Tok::ClosedPar) throw SelectorError("found '" + lit + "', expected: ')'");
    std::sort(vals.begin(), vals.end());
    return vals;
  }

  std::string exact_value() {
    auto t = peek().tok;
    if (t == Tok::EndOfString || t == Tok::Comma) return "";
    auto [tok, lit] = next();
    if (tok == Tok::Identifier) return lit;
    throw SelectorError("found '" + lit + "', expected: identifier");
  }

  static void add(std::vector<std::string>& vals, const std::string& v) {
    if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
  }

  // The parser checks the key with no field path (field.Error renders ": Invalid value: ..."),
  // then labels.NewRequirement the values under "values[i][key]".
  static void check_key(const std::string& key) {
    auto errs = names::qualified_name(key);
    if (!errs.empty()) throw SelectorError(": Invalid value: " + quote(key) + ": " + join(errs));
  }
  static void check_values(const Requirement& r) {
    std::vector<std::string> errs;
    if (r.op == Requirement::Op::GreaterThan || r.op == Requirement::Op::LessThan) {
      char* end = nullptr;
      errno = 0;
      std::strtoll(r.values[0].c_str(), &end, 10);
      if (r.values[0].empty() || *end != '\0' || errno == ERANGE)
        errs.push_back("values[0]: Invalid value: " + quote(r.values[0]) + ": for 'Gt', 'Lt' operators, the value must be an integer");
    }
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      auto m = names::label_value(r.values[i]);
      if (!m.empty()) errs.push_back("values[" + std::to_string(i) + "][" + r.key + "]: Invalid value: " + quote(r.values[i]) + ": " + join(m));
    }
    if (errs.size() == 1) throw SelectorError(errs[0]);
    if (!errs.empty()) throw SelectorError("[" + join(errs, ", ") + "]");
  }
  static std::string quote(const std::string& s) { return "\"" + s + "\""; }
  static std::string join(const std::vector<std::string>& v, std::string_view sep = "; ") {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : std::string(sep)) + x;
    return out;
  }

  std::vector<Item> items_;
  std::size_t pos_ = 0;
};

std::optional<long long> as_integer(const std::string& s) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE) return std::nullopt;
  return v;
}

bool matches_req(const Requirement& r, const Labels& labels) {
  auto it = labels.find(r.key);
  bool has = it != labels.end();
  auto in_values = [&] { return has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end(); };
  switch (r.op) {
    case Requirement::Op::Equals: return in_values();
    case Requirement::Op::In: return in_values();
    case Requirement::Op::NotEquals:
    case Requirement::Op::NotIn: return !in_values();
    case Requirement::Op::Exists: return has;
    case Requirement::Op::DoesNotExist: return !has;
    case Requirement::Op::GreaterThan:
    case Requirement::Op::LessThan: {
      if (!has) return false;
      auto have = as_integer(it->second), want = as_integer(r.values.at(0));
      if (!have || !want) return false;
      return r.op == Requirement::Op::GreaterThan ? *have > *want : *have < *want;
    }
  }
  return false;
}

}  // namespace

LabelSelector LabelSelector::parse(std::string_view text) {
  LabelSelector s;
  s.reqs_ = Parser(text).parse();
  return s;
}

LabelSelector LabelSelector::from_json(const json::Value* v) {
  LabelSelector s;
  if (!v || !v->is_object()) return s;
  if (const auto* ml = json::get_object(*v, {"matchLabels"})) {
    for (const auto& kv : *ml) {
      Requirement r;
      r.key = std::string(kv.key());
      r.op = Requirement::Op::Equals;
      r.values.emplace_back(kv.value().is_string() ? std::string(kv.value().get_string()) : json::serialize(kv.value()));
      s.reqs_.push_back(std::move(r));
    }
  }
  if (const auto* me = json::get_array(*v, {"matchExpressions"})) {
    for (const auto& e : *me) {
      Requirement r;
      r.key = std::string(json::get_string(e, {"key"}));
      auto op = json::get_string(e, {"operator"});
      if (op == "In") r.op = Requirement::Op::In;
      else if (op == "NotIn") r.op = Requirement::Op::NotIn;
      else if (op == "Exists") r.op = Requirement::Op::Exists;
      else if (op == "DoesNotExist") r.op = Requirement::Op::DoesNotExist;
      else throw SelectorError("\"" + std::string(op) + "\" is not a valid label selector operator");
      if (const auto* vals = json::get_array(e, {"values"}))
        for (const auto& x : *vals)
          if (x.is_string()) r.values.emplace_back(x.get_string());
      s.reqs_.push_back(std::move(r));
    }
  }
  return s;
}

bool LabelSelector::matches(const Labels& labels) const {
  for (const auto& r : reqs_)
    if (!matches_req(r, labels)) return false;
  return true;
}

bool LabelSelector::matches(const json::Value& object) const {
  if (reqs_.empty()) return true;
  return matches(labels_of(object));
}

std::string LabelSelector::str() const {
  std::string out;
  for (const auto& r : reqs_) {
    if (!out.empty()) out += ',';
    switch (r.op) {
      case Requirement::Op::Equals: out += r.key + "=" + r.values.at(0); break;
      case Requirement::Op::NotEquals: out += r.key + "!=" + r.values.at(0); break;
      case Requirement::Op::Exists: out += r.key; break;
      case Requirement::Op::DoesNotExist: out += "!" + r.key; break;
      case Requirement::Op::GreaterThan: out += r.key + ">" + r.values.at(0); break;
      case Requirement::Op::LessThan: out += r.key + "<" + r.values.at(0); break;
      case Requirement::Op::In:
      case Requirement::Op::NotIn: {
        out += r.key + (r.op == Requirement::Op::In ? " in (" : " notin (");
        for (std::size_t i = 0; i < r.values.size(); ++i) {
          if (i) out += ',';
          out += r.values[i];
        }
        out += ')';
        break;
      }
    }
  }
  return out;
}

Labels labels_of(const json::Value& object) {
  Labels out;
  if (const auto* l = json::get_object(object, {"metadata", "labels"})) {
    for (const auto& kv : *l)
      if (kv.value().is_string()) out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
  }
  return out;
}

namespace {

// fields.ParseSelector's pieces (k8s.io/apimachinery/pkg/fields/selector.go). Field selectors
// have no parentheses: terms are split on commas a backslash does not escape, and a value
// escapes `\`, `,` and `=`. (They once shared the label selectors' splitter, so a ')' in a
// value stopped every later comma from splitting: found by runtime/meta/fuzz/selector_fuzz.cpp.)
std::vector<std::string_view> split_field_terms(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (escaped) escaped = false;
    else if (text[i] == '\\') escaped = true;
    else if (text[i] == ',') {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(text.substr(start));
  return out;
}

// The first position where "!=", "==" or "=" starts splits the term (the field has no escapes).
bool split_field_term(std::string_view term, std::string_view& lhs, std::string_view& op, std::string_view& rhs) {
  for (std::size_t i = 0; i < term.size(); ++i) {
    for (std::string_view o : {"!=", "==", "="}) {
      if (term.substr(i).starts_with(o)) {
        lhs = term.substr(0, i);
        op = o;
        rhs = term.substr(i + o.size());
        return true;
      }
    }
  }
  return false;
}

std::string unescape_field_value(std::string_view v) {
  std::string out;
  bool escaped = false;
  for (char c : v) {
    if (escaped) {
      if (c != '\\' && c != ',' && c != '=')
        throw SelectorError("invalid field selector: invalid escape sequence: \\" + std::string(1, c));
      out += c;
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == ',' || c == '=') {
      throw SelectorError("invalid field selector: unescaped character in value: " + std::string(1, c));
    } else {
      out += c;
    }
  }
  if (escaped) throw SelectorError("invalid field selector: invalid escape sequence: \\");
  return out;
}

std::string escape_field_value(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

FieldSelector FieldSelector::parse(std::string_view text) {
  FieldSelector s;
  if (text.empty()) return s;
  for (auto term : split_field_terms(text)) {
    if (term.empty()) continue;  // "a=b," as upstream
    std::string_view lhs, op, rhs;
    if (!split_field_term(term, lhs, op, rhs))
      throw SelectorError("invalid selector: '" + std::string(text) + "'; can't understand '" + std::string(term) + "'");
    // Nothing is trimmed, as upstream: a field trimmed of a trailing "\f" could end in '!',
    // and "a!" "=" "b" prints as "a!=b", another selector (found by selector_fuzz too).
    Term t;
    t.equal = op != "!=";
    t.field = std::string(lhs);
    t.value = unescape_field_value(rhs);
    s.terms_.push_back(std::move(t));
  }
  return s;
}

bool FieldSelector::matches(const std::function<std::optional<std::string>(std::string_view)>& get) const {
  for (const auto& t : terms_) {
    auto v = get(t.field);
    std::string actual = v.value_or("");
    if ((actual == t.value) != t.equal) return false;
  }
  return true;
}

std::string FieldSelector::str() const {
  std::string out;
  for (const auto& t : terms_) {
    if (!out.empty()) out += ',';
    out += t.field + (t.equal ? "=" : "!=") + escape_field_value(t.value);
  }
  return out;
}

Labels parse_labels(std::string_view text) {
  Labels out;
  const LabelSelector selector = LabelSelector::parse(text);
  for (const auto& r : selector.requirements()) {
    if (r.op != Requirement::Op::Equals || r.values.size() != 1) throw SelectorError("\"" + r.key + "\": labels are key=value");
    out[r.key] = r.values.front();
  }
  return out;
}

}  // namespace capstan::meta
