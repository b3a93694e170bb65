// Reading where a CertificateRequest stands (cert-manager's apiutil helpers).
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <optional>
#include <string>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// Ready=True with a certificate.
bool request_issued(const v1::CertificateRequest& cr);
// Finished without a certificate: Ready=False Failed/Denied (set by the signer with failureTime)
// or InvalidRequest=True.
bool request_failed(const v1::CertificateRequest& cr);
// The failure's reason and message: the Denied condition's, else InvalidRequest's, else Ready's.
std::pair<std::string, std::string> request_failure(const v1::CertificateRequest& cr);
// status.failureTime, else the creation time, truncated to seconds.
meta::TimePoint request_failure_time(const v1::CertificateRequest& cr, const json::Value& obj);

}  // namespace capstan::certificates
