// The SelfSigned issuer (pkg/issuer/selfsigned, pkg/controller/certificaterequests/selfsigned):
// always Ready (IsReady); signs a request's CSR with the private key in the Secret named by
// the request's certs.capstan.dev/private-key-secret-name annotation (in the request's
// namespace), which must be the CSR's key. ca.crt is the certificate itself.
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/issuer.h"
#include "controllers/certificates/issuers/setup.h"
#include "controllers/certificates/requests/outcome.h"
#include "runtime/json/json.h"

namespace capstan::certificates {

struct Env;

IssuerCondition setup_self_signed(const v1::Issuer& issuer);
SignOutcome sign_self_signed(Env& env, const v1::CertificateRequest& cr, const json::Value& cr_obj, const v1::Issuer& issuer);

}  // namespace capstan::certificates
