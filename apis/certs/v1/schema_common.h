// Schema pieces shared by the kinds' schemas (internal).
#pragma once

#include "apis/common/openapi.h"

#include <string_view>

namespace capstan::apis::certs::v1::openapi {

using apis::openapi::conditions;
using apis::openapi::Schema;

// {apiVersion: certs.capstan.dev/v1, kind, metadata, spec, status}; spec is required.
Schema root(std::string_view description, const Schema& spec, const Schema& status);
Schema issuer_ref();
Schema secret_key_selector(std::string_view description);
// The 23 cert-manager usage names as an enum.
Schema usages(std::string_view description);

}  // namespace capstan::apis::certs::v1::openapi
