// Schema pieces shared by the kinds' schemas (internal).
#pragma once

#include "apis/certs/v1/schema_builder.h"

#include <string_view>

namespace capstan::apis::certs::v1::openapi {

// {apiVersion, kind, metadata, spec, status}; spec is required.
Schema root(std::string_view description, const Schema& spec, const Schema& status);
// status.conditions: a list map keyed by type.
Schema conditions(std::string_view description, std::string_view types, bool observed_generation);
Schema issuer_ref();
Schema secret_key_selector(std::string_view description);
// The 23 cert-manager usage names as an enum.
Schema usages(std::string_view description);

}  // namespace capstan::apis::certs::v1::openapi
