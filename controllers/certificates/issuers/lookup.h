// Finding the Issuer or ClusterIssuer an issuerRef names (from the cache) and where its
// Secrets live (the Issuer's namespace; the cluster resource namespace for ClusterIssuers).
#pragma once

#include "apis/certs/v1/common.h"
#include "apis/certs/v1/issuer.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <string_view>

namespace capstan::certificates {

struct Env;
namespace v1 = apis::certs::v1;

struct IssuerObject {
  v1::Issuer issuer;
  json::Value obj;
};

// nullopt when absent (or undecodable: logged by the issuer controller).
std::optional<IssuerObject> find_issuer(const Env& env, const v1::IssuerReference& ref, std::string_view ns);
std::string resource_namespace(const Env& env, const v1::Issuer& issuer);
bool issuer_ready(const v1::Issuer& issuer);
// "selfSigned", "ca", "acme" or "" (none / several: the webhook rejects those).
std::string issuer_type(const v1::IssuerSpec& spec);

}  // namespace capstan::certificates
