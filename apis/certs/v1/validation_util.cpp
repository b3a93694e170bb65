#include "apis/certs/v1/validation_util.h"

#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"
#include "runtime/meta/names.h"
#include "runtime/meta/time.h"
#include "runtime/meta/ascii.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

namespace capstan::apis::certs::v1::vutil {
namespace {

constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;

// ---- net/mail (the subset of RFC 5322 Go's ParseAddress implements) ---------------------------

bool is_atext(unsigned char c, bool dot) {
  if (c >= 0x80) return true;  // Go accepts UTF-8 (RFC 6532)
  if (std::isalnum(c)) return true;
  if (c == '.') return dot;
  return std::string_view("!#$%&'*+-/=?^_`{|}~").find(static_cast<char>(c)) != std::string_view::npos;
}

struct MailParser {
  std::string_view s;

  void skip_space() {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  }
  bool consume(char c) {
    if (s.empty() || s.front() != c) return false;
    s.remove_prefix(1);
    return true;
  }
  // consumeAtom: strict (no leading, trailing or double dots) unless permissive.
  std::optional<std::string> atom(bool dot, bool permissive, std::string* err) {
    std::size_t i = 0;
    while (i < s.size() && is_atext(static_cast<unsigned char>(s[i]), dot)) ++i;
    if (i == 0) {
      *err = "mail: invalid string";
      return std::nullopt;
    }
    std::string a(s.substr(0, i));
    s.remove_prefix(i);
    if (!permissive) {
      if (a.front() == '.') return (*err = "mail: leading dot in atom", std::nullopt);
      if (a.find("..") != std::string::npos) return (*err = "mail: double dot in atom", std::nullopt);
      if (a.back() == '.') return (*err = "mail: trailing dot in atom", std::nullopt);
    }
    return a;
  }
  std::optional<std::string> quoted(std::string* err) {
    // s starts with '"'
    std::string out;
    std::size_t i = 1;
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\' && i + 1 < s.size()) ++i;
      out += s[i++];
    }
    if (i >= s.size()) {
      *err = "mail: unclosed quoted-string";
      return std::nullopt;
    }
    s.remove_prefix(i + 1);
    return out;
  }
  // addr-spec = local-part "@" domain
  std::optional<std::string> addr_spec(std::string* err) {
    MailParser save = *this;
    std::optional<std::string> local;
    if (!s.empty() && s.front() == '"') local = quoted(err);
    else local = atom(true, false, err);
    if (!local) return (*this = save, std::nullopt);
    if (!consume('@')) {
      *err = "mail: missing @ in addr-spec";
      return (*this = save, std::nullopt);
    }
    std::optional<std::string> domain;
    if (!s.empty() && s.front() == '[') {
      auto close = s.find(']');
      if (close == std::string_view::npos) {
        *err = "mail: unclosed domain-literal";
        return (*this = save, std::nullopt);
      }
      domain = std::string(s.substr(0, close + 1));
      s.remove_prefix(close + 1);
    } else {
      if (s.empty()) {
        *err = "mail: no domain in addr-spec";
        return (*this = save, std::nullopt);
      }
      domain = atom(true, false, err);
    }
    if (!domain) return (*this = save, std::nullopt);
    return *local + "@" + *domain;
  }
};

}  // namespace

const json::Object& object_or_empty(const json::Value* v) {
  static const json::Object empty;
  return v && v->is_object() ? v->get_object() : empty;
}

const json::Value* get(const json::Object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && !v->is_null() ? v : nullptr;
}

std::string_view str(const json::Object& o, std::string_view key) {
  const auto* v = get(o, key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

const json::Object* obj(const json::Object& o, std::string_view key) {
  const auto* v = get(o, key);
  return v && v->is_object() ? &v->get_object() : nullptr;
}

const json::Array* arr(const json::Object& o, std::string_view key) {
  const auto* v = get(o, key);
  return v && v->is_array() ? &v->get_array() : nullptr;
}

std::size_t array_size(const json::Object& o, std::string_view key) {
  const auto* a = arr(o, key);
  return a ? a->size() : 0;
}

bool truthy(const json::Object& o, std::string_view key) {
  const auto* v = get(o, key);
  return v && v->is_bool() && v->get_bool();
}

json::Value jstr(std::string_view s) { return json::Value(json::String(s)); }

std::vector<std::string> dns1123_subdomain_errors(std::string_view value) { return meta::names::dns1123_subdomain(value); }
std::vector<std::string> qualified_name_errors(std::string_view value) { return meta::names::qualified_name(value); }
std::vector<std::string> label_value_errors(std::string_view value) { return meta::names::label_value(value); }

void validate_labels(const json::Object& labels, const FieldPath& path, Causes& out) {
  for (const auto& kv : labels) {
    for (const auto& m : qualified_name_errors(kv.key())) out.push_back(validation::field_invalid(path, jstr(kv.key()), m));
    if (!kv.value().is_string()) continue;
    for (const auto& m : label_value_errors(kv.value().get_string())) out.push_back(validation::field_invalid(path, kv.value(), m));
  }
}

void validate_annotations(const json::Object& annotations, const FieldPath& path, Causes& out) {
  std::size_t total = 0;
  for (const auto& kv : annotations) {
    const std::string lower = meta::ascii_lower(kv.key());
    for (const auto& m : qualified_name_errors(lower)) out.push_back(validation::field_invalid(path, jstr(kv.key()), m));
    total += kv.key().size() + (kv.value().is_string() ? kv.value().get_string().size() : 0);
  }
  if (total > kTotalAnnotationSizeLimit) out.push_back(validation::field_too_long(path, kTotalAnnotationSizeLimit));
}

bool is_ip(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  std::string z(s);
  unsigned char buf[16];
  if (z.find(':') != std::string::npos) return inet_pton(AF_INET6, z.c_str(), buf) == 1;
  return inet_pton(AF_INET, z.c_str(), buf) == 1;
}

bool is_cidr(std::string_view s) {
  auto slash = s.find('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  std::string_view addr = s.substr(0, slash), bits = s.substr(slash + 1);
  if (!is_ip(addr) || bits.empty() || bits.size() > 3 || (bits.size() > 1 && bits[0] == '0')) return false;
  if (!std::all_of(bits.begin(), bits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  int n = std::stoi(std::string(bits));
  return n <= (addr.find(':') != std::string_view::npos ? 128 : 32);
}

std::optional<std::string> mail_parse_error(std::string_view input, std::string* address) {
  MailParser p{input};
  p.skip_space();
  if (p.s.empty()) return "mail: no address";
  std::string err;
  auto finish = [&](std::string addr) -> std::optional<std::string> {
    p.skip_space();
    if (!p.s.empty() && p.s.front() == '(') {  // a trailing comment (display name): skip it
      auto close = p.s.rfind(')');
      if (close == std::string_view::npos) return "mail: misformatted parenthetical comment";
      p.s.remove_prefix(close + 1);
      p.skip_space();
    }
    if (!p.s.empty()) return "mail: expected single address, got " + codec::go_quote(p.s);
    if (address) *address = std::move(addr);
    return std::nullopt;
  };
  if (auto spec = p.addr_spec(&err)) return finish(*spec);

  // name-addr = [display-name] angle-addr
  std::string display;
  if (p.s.front() != '<') {
    std::vector<std::string> words;
    std::string werr;
    while (true) {
      p.skip_space();
      std::optional<std::string> w;
      if (!p.s.empty() && p.s.front() == '"') w = p.quoted(&werr);
      else w = p.atom(true, true, &werr);
      if (!w) break;
      words.push_back(*w);
    }
    if (words.empty()) return "mail: missing word in phrase: " + werr;
    for (std::size_t i = 0; i < words.size(); ++i) display += (i ? " " : "") + words[i];
  }
  p.skip_space();
  if (!p.consume('<')) {
    bool atext = std::all_of(display.begin(), display.end(), [](unsigned char c) { return is_atext(c, true); });
    return atext ? "mail: missing '@' or angle-addr" : "mail: no angle-addr";
  }
  auto spec = p.addr_spec(&err);
  if (!spec) return err;
  if (!p.consume('>')) return "mail: unclosed angle-addr";
  return finish(*spec);
}

void validate_issuer_ref(const json::Object* ref, const FieldPath& spec_path, Causes& out) {
  static const json::Object empty;
  const json::Object& r = ref ? *ref : empty;
  FieldPath path = spec_path.child("issuerRef");
  if (str(r, "name").empty()) out.push_back(validation::field_required(path.child("name"), "must be specified"));
  std::string_view group = str(r, "group");
  std::string_view kind = str(r, "kind");
  // Kinds of other groups belong to external issuers, which we cannot check.
  if (!group.empty() && group != kGroup) return;
  if (kind.empty() || kind == kIssuerKind || kind == kClusterIssuerKind) return;
  std::string msg = "must be one of Issuer or ClusterIssuer";
  // Upstream hints "(did you forget to set spec.issuerRef.kind.group?)", a path that does not
  // exist; we name the real field.
  if (group.empty()) msg += " (did you forget to set " + path.child("group").str() + "?)";
  out.push_back(validation::field_invalid(path.child("kind"), jstr(kind), msg));
}

Cause invalid_duration(const FieldPath& p, std::chrono::nanoseconds d, std::string_view detail) {
  return validation::field_invalid_rendered(p, meta::format_go_duration(d), detail);
}

}  // namespace capstan::apis::certs::v1::vutil
