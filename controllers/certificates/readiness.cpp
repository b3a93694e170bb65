#include "controllers/certificates/readiness.h"

#include "apis/certs/v1/defaults.h"
#include "controllers/certificates/constants.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/error.h"

namespace capstan::certificates {
namespace v1 = apis::certs::v1;

Readiness compute_readiness(const policies::Input& in) {
  Readiness r;
  if (auto violation = policies::evaluate(policies::readiness_chain(), in)) {
    r.status = "False";
    r.reason = violation->reason;
    r.message = violation->message;
  } else {
    r.status = "True";
    r.reason = std::string(reason::kReady);
    r.message = std::string(kReadyMessage);
  }
  if (in.secret) {
    try {
      auto cert = pki::Certificate::parse_pem(in.secret->get(kTlsCrt));
      r.not_before = std::chrono::floor<std::chrono::seconds>(cert.not_before());
      r.not_after = std::chrono::floor<std::chrono::seconds>(cert.not_after());
      r.renewal_time = v1::renewal_time(in.certificate->spec, cert.not_before(), cert.not_after());
    } catch (const pki::PkiError&) {
    }
  }
  return r;
}

}  // namespace capstan::certificates
