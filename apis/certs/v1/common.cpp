#include "apis/certs/v1/common.h"

#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"

#include <algorithm>

namespace capstan::apis::certs::v1 {

using openapi::Schema;

bool is_known_usage(std::string_view usage) {
  return std::find(kKeyUsages.begin(), kKeyUsages.end(), usage) != kKeyUsages.end();
}

namespace {

const auto& issuer_ref_fields() {
  static const auto table = codec::table<IssuerReference>(
      "The issuer that signs the certificate: an Issuer in the same namespace, a ClusterIssuer, or an external issuer of "
      "another group. The name is always required.",
      codec::field("name", &IssuerReference::name, Schema::string("Name of the issuer.").max_length(253)).required(),
      codec::field("kind", &IssuerReference::kind,
                   Schema::string("Kind of the issuer: Issuer (the default) or ClusterIssuer for certs.capstan.dev.").max_length(63)),
      codec::field("group", &IssuerReference::group,
                   Schema::string("API group of the issuer; defaults to certs.capstan.dev.").max_length(253)));
  return table;
}

const auto& secret_key_selector_fields() {
  static const auto table = codec::table<SecretKeySelector>(
      "A key of a Secret.",
      codec::field("name", &SecretKeySelector::name, Schema::string("Name of the Secret.").max_length(253)).required(),
      codec::field("key", &SecretKeySelector::key,
                   Schema::string("Key in the Secret's data; some fields have a default.").max_length(253)));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(IssuerReference, issuer_ref_fields)
CAPSTAN_CODEC_FROM(SecretKeySelector, secret_key_selector_fields)

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) {
  for (const auto& c : conditions)
    if (c.type == type) return &c;
  return nullptr;
}

Schema usages_schema(std::string_view description) {
  return std::move(Schema::array(
      Schema::string_enum(kKeyUsages, "A key usage or extended key usage (RFC 5280 4.2.1.3, 4.2.1.12), named as in cert-manager."),
      description)
      .max_items(32));
}

}  // namespace capstan::apis::certs::v1
