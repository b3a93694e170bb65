#include "controllers/certificates/acme/resources.h"

namespace capstan::certificates::acme {
namespace {

std::string str(const json::Object& o, std::string_view key) { return std::string(json::get_string(o, {key})); }

std::optional<Problem> error_of(const json::Object& o) {
  if (const json::Object* e = json::get_object(o, {"error"})) return parse_problem(*e);
  return std::nullopt;
}

Identifier identifier_of(const json::Object& o) { return {str(o, "type"), str(o, "value")}; }

}  // namespace

const Challenge* Authorization::find_challenge(std::string_view type) const {
  for (const auto& c : challenges)
    if (c.type == type) return &c;
  return nullptr;
}

Registration parse_registration(const json::Object& o) {
  Registration r;
  r.status = str(o, "status");
  r.orders = str(o, "orders");
  if (const json::Array* contact = json::get_array(o, {"contact"})) {
    for (const auto& c : *contact)
      if (c.is_string()) r.contact.emplace_back(c.as_string());
  }
  return r;
}

Challenge parse_challenge(const json::Object& o) {
  Challenge c;
  c.type = str(o, "type");
  c.url = str(o, "url");
  c.token = str(o, "token");
  c.status = str(o, "status");
  c.validated = str(o, "validated");
  c.error = error_of(o);
  return c;
}

Authorization parse_authorization(const json::Object& o, std::string url) {
  Authorization a;
  a.url = std::move(url);
  if (const json::Object* id = json::get_object(o, {"identifier"})) a.identifier = identifier_of(*id);
  a.status = str(o, "status");
  a.expires = str(o, "expires");
  a.wildcard = json::get_bool(o, {"wildcard"});
  if (const json::Array* cs = json::get_array(o, {"challenges"})) {
    for (const auto& c : *cs)
      if (c.is_object()) a.challenges.push_back(parse_challenge(c.as_object()));
  }
  return a;
}

Order parse_order(const json::Object& o, std::string url) {
  Order ord;
  ord.url = std::move(url);
  ord.status = str(o, "status");
  ord.expires = str(o, "expires");
  ord.finalize = str(o, "finalize");
  ord.certificate = str(o, "certificate");
  ord.not_before = str(o, "notBefore");
  ord.not_after = str(o, "notAfter");
  ord.error = error_of(o);
  if (const json::Array* ids = json::get_array(o, {"identifiers"})) {
    for (const auto& i : *ids)
      if (i.is_object()) ord.identifiers.push_back(identifier_of(i.as_object()));
  }
  if (const json::Array* az = json::get_array(o, {"authorizations"})) {
    for (const auto& a : *az)
      if (a.is_string()) ord.authorizations.emplace_back(a.as_string());
  }
  return ord;
}

}  // namespace capstan::certificates::acme
