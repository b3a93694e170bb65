#include "runtime/meta/selector.h"

#include <algorithm>
#include <cctype>

namespace capstan::meta {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits on commas that are not inside parentheses.
std::vector<std::string_view> split_terms(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(text.substr(start)));
  return out;
}

bool valid_key(std::string_view k) {
  if (k.empty() || k.size() > 317) return false;
  for (char c : k) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/')) return false;
  }
  return true;
}

bool valid_value(std::string_view v) {
  if (v.size() > 63) return false;
  for (char c : v)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

Requirement parse_set_term(std::string_view term, std::size_t op_pos, std::size_t op_len, Requirement::Op op) {
  Requirement r;
  r.key = std::string(trim(term.substr(0, op_pos)));
  r.op = op;
  std::string_view rest = trim(term.substr(op_pos + op_len));
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') {
    throw SelectorError("unable to parse requirement: found '" + std::string(rest) + "', expected: '('");
  }
  rest = rest.substr(1, rest.size() - 2);
  std::size_t start = 0;
  while (start <= rest.size()) {
    auto comma = rest.find(',', start);
    auto v = trim(rest.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (!valid_value(v)) throw SelectorError("invalid label value: \"" + std::string(v) + "\"");
    r.values.emplace_back(v);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return r;
}

// Finds " in " / " notin " as whole words.
std::size_t find_word(std::string_view term, std::string_view word) {
  std::size_t pos = 0;
  while ((pos = term.find(word, pos)) != std::string_view::npos) {
    bool left = pos > 0 && std::isspace(static_cast<unsigned char>(term[pos - 1]));
    std::size_t end = pos + word.size();
    bool right = end < term.size() && (std::isspace(static_cast<unsigned char>(term[end])) || term[end] == '(');
    if (left && right) return pos;
    ++pos;
  }
  return std::string_view::npos;
}

Requirement parse_term(std::string_view term) {
  if (term.empty()) throw SelectorError("found '', expected: identifier");
  if (auto p = find_word(term, "notin"); p != std::string_view::npos) {
    return parse_set_term(term, p, 5, Requirement::Op::NotIn);
  }
  if (auto p = find_word(term, "in"); p != std::string_view::npos) {
    return parse_set_term(term, p, 2, Requirement::Op::In);
  }
  Requirement r;
  std::size_t p;
  if ((p = term.find("!=")) != std::string_view::npos) {
    r.op = Requirement::Op::NotEquals;
    r.key = std::string(trim(term.substr(0, p)));
    r.values.emplace_back(trim(term.substr(p + 2)));
  } else if ((p = term.find("==")) != std::string_view::npos) {
    r.op = Requirement::Op::Equals;
    r.key = std::string(trim(term.substr(0, p)));
    r.values.emplace_back(trim(term.substr(p + 2)));
  } else if ((p = term.find('=')) != std::string_view::npos) {
    r.op = Requirement::Op::Equals;
    r.key = std::string(trim(term.substr(0, p)));
    r.values.emplace_back(trim(term.substr(p + 1)));
  } else if (term.front() == '!') {
    r.op = Requirement::Op::DoesNotExist;
    r.key = std::string(trim(term.substr(1)));
  } else {
    r.op = Requirement::Op::Exists;
    r.key = std::string(term);
  }
  if (!valid_key(r.key)) throw SelectorError("invalid label key \"" + r.key + "\"");
  for (const auto& v : r.values)
    if (!valid_value(v)) throw SelectorError("invalid label value: \"" + v + "\"");
  return r;
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
  }
  return false;
}

}  // namespace

LabelSelector LabelSelector::parse(std::string_view text) {
  LabelSelector s;
  text = trim(text);
  if (text.empty()) return s;
  for (auto term : split_terms(text)) s.reqs_.push_back(parse_term(term));
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

FieldSelector FieldSelector::parse(std::string_view text) {
  FieldSelector s;
  text = trim(text);
  if (text.empty()) return s;
  for (auto term : split_terms(text)) {
    Term t;
    std::size_t p;
    if ((p = term.find("!=")) != std::string_view::npos) {
      t.equal = false;
      t.field = std::string(trim(term.substr(0, p)));
      t.value = std::string(trim(term.substr(p + 2)));
    } else if ((p = term.find("==")) != std::string_view::npos) {
      t.field = std::string(trim(term.substr(0, p)));
      t.value = std::string(trim(term.substr(p + 2)));
    } else if ((p = term.find('=')) != std::string_view::npos) {
      t.field = std::string(trim(term.substr(0, p)));
      t.value = std::string(trim(term.substr(p + 1)));
    } else {
      throw SelectorError("invalid selector: '" + std::string(text) + "'; can't understand '" + std::string(term) + "'");
    }
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
    out += t.field + (t.equal ? "=" : "!=") + t.value;
  }
  return out;
}

}  // namespace capstan::meta
