#include "apis/certs/v1/schema_common.h"

#include "apis/certs/v1/group.h"

#include <string>

namespace capstan::apis::certs::v1::openapi {

Schema root(std::string_view description, const Schema& spec, const Schema& status) {
  return apis::openapi::root(kApiVersion, description, spec, status);
}

Schema issuer_ref() {
  return std::move(
      Schema::object("The issuer that signs the certificate: an Issuer in the same namespace, a ClusterIssuer, or an "
                     "external issuer of another group. The name is always required.")
          .property("name", Schema::string("Name of the issuer.").max_length(253))
          .property("kind", Schema::string("Kind of the issuer: Issuer (the default) or ClusterIssuer for certs.capstan.dev.").max_length(63))
          .property("group", Schema::string("API group of the issuer; defaults to certs.capstan.dev.").max_length(253))
          .required({"name"}));
}

Schema secret_key_selector(std::string_view description) {
  return std::move(Schema::object(description)
                       .property("name", Schema::string("Name of the Secret.").max_length(253))
                       .property("key", Schema::string("Key in the Secret's data; some fields have a default.").max_length(253))
                       .required({"name"}));
}

Schema usages(std::string_view description) {
  return std::move(Schema::array(
      Schema::string_enum(kKeyUsages, "A key usage or extended key usage (RFC 5280 4.2.1.3, 4.2.1.12), named as in cert-manager."),
      description)
      .max_items(32));
}

}  // namespace capstan::apis::certs::v1::openapi
