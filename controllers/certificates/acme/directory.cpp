#include "controllers/certificates/acme/directory.h"

#include <stdexcept>

namespace capstan::certificates::acme {

Directory parse_directory(const json::Object& o) {
  auto str = [&](std::string_view key) { return std::string(json::get_string(o, {key})); };
  Directory d;
  d.new_nonce = str("newNonce");
  d.new_account = str("newAccount");
  d.new_order = str("newOrder");
  d.new_authz = str("newAuthz");
  d.revoke_cert = str("revokeCert");
  d.key_change = str("keyChange");
  d.renewal_info = str("renewalInfo");
  for (auto [name, value] : {std::pair{"newNonce", &d.new_nonce}, std::pair{"newAccount", &d.new_account},
                             std::pair{"newOrder", &d.new_order}}) {
    if (value->empty()) throw std::invalid_argument(std::string("ACME directory has no \"") + name + "\" URL");
  }
  if (const json::Object* meta = json::get_object(o, {"meta"})) {
    d.meta.terms_of_service = json::get_string(*meta, {"termsOfService"});
    d.meta.website = json::get_string(*meta, {"website"});
    d.meta.external_account_required = json::get_bool(*meta, {"externalAccountRequired"});
    if (const json::Array* caa = json::get_array(*meta, {"caaIdentities"})) {
      for (const auto& c : *caa)
        if (c.is_string()) d.meta.caa_identities.emplace_back(c.as_string());
    }
  }
  return d;
}

}  // namespace capstan::certificates::acme
