// Asking the certificates controller to issue a Certificate again, the way cert-manager's
// `cmctl renew` does: by setting the Certificate's Issuing condition True, which the controller
// takes as the trigger for a new CertificateRequest. Used by `capstan certs renew` and by the
// Kafka operator when a CA's key is replaced.
#pragma once

#include "runtime/json/json.h"

#include <string_view>

namespace capstan::apis::certs::v1 {

// Sets the Issuing condition of `certificate` (a Certificate object) True with `reason` and
// `message`, now, at its generation; an Issuing condition it had is replaced (conditions are a
// map keyed by type). The caller writes the status.
void set_issuing(json::Value& certificate, std::string_view reason, std::string_view message);

}  // namespace capstan::apis::certs::v1
