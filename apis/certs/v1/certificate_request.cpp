#include "apis/certs/v1/certificate_request.h"

#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;

namespace {

// cert-manager's CRD defaults the group of a CertificateRequest's issuerRef (and, there, does not
// bound its length).
Schema issuer_ref_with_default_group() {
  Schema ref = IssuerReference::schema();
  ref.property("group", Schema::string("API group of the issuer; defaults to certs.capstan.dev.")
                            .default_value(json::Value(json::String(kGroup))));
  return ref;
}

// issuerRef comes before request so that `required` keeps its order (issuerRef, request).
const auto& spec_fields() {
  using S = CertificateRequestSpec;
  static const auto table = codec::table<S>(
      "Desired state of the CertificateRequest; immutable once created.",
      codec::field("issuerRef", &S::issuer_ref, issuer_ref_with_default_group()).required(),
      codec::field("request", &S::request,
                   Schema::bytes("The PEM-encoded PKCS#10 certificate signing request (base64 in JSON). Its key usages "
                                 "and isCA must match the fields below when both are set.")
                       .max_length(256 * 1024))
          .required(),
      codec::field("duration", &S::duration, Schema::string("Requested lifetime as a Go duration; the issuer may ignore it.")),
      codec::field("isCA", &S::is_ca, Schema::boolean("Request a CA certificate; adds the cert sign usage.")),
      codec::field("usages", &S::usages,
                   usages_schema("Requested key usages and extended key usages. Default: digital signature and key "
                                 "encipherment.")),
      codec::field("username", &S::username, Schema::string("User who created the request; set by the webhook.")),
      codec::field("uid", &S::uid, Schema::string("UID of the user who created the request; set by the webhook.")),
      codec::field("groups", &S::groups,
                   Schema::strings("Groups of the user who created the request; set by the webhook.").max_items(1024)),
      codec::field("extra", &S::extra,
                   Schema::map(Schema::strings(), "Extra attributes of the user who created the request; set by the "
                                                  "webhook.")));
  return table;
}

const auto& status_fields() {
  using S = CertificateRequestStatus;
  static const auto table = codec::table<S>(
      "Observed state of the CertificateRequest, set by the controllers.",
      codec::field("conditions", &S::conditions,
                   openapi::conditions("Conditions: Ready, Approved, Denied and InvalidRequest.",
                                       "Ready, InvalidRequest, Approved, Denied", false)),
      codec::field("certificate", &S::certificate,
                   Schema::bytes("The signed certificate chain, PEM, leaf first (base64 in JSON). Unset until issued.")),
      codec::field("ca", &S::ca,
                   Schema::bytes("The PEM certificate of the signing CA, when the issuer knows it (base64 in JSON).")),
      codec::field("failureTime", &S::failure_time,
                   Schema::date_time("When the request failed; drives back-off and garbage collection.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(CertificateRequestSpec, spec_fields)
CAPSTAN_CODEC_FROM(CertificateRequestStatus, status_fields)

bool CertificateRequestStatus::approved() const {
  const auto* c = condition(condition::kApproved);
  return c && c->status == "True";
}

bool CertificateRequestStatus::denied() const {
  const auto* c = condition(condition::kDenied);
  return c && c->status == "True";
}

json::Value CertificateRequest::to_json() const {
  return Resource::to_json(kApiVersion, kCertificateRequestKind);
}

Schema CertificateRequest::schema() {
  return openapi::root(kApiVersion,
                       "A CertificateRequest is a one-shot request for a signed certificate from an issuer. Its spec is "
                       "immutable; it ends Ready (status.certificate set) or failed (status.failureTime set).",
                       CertificateRequestSpec::schema(), CertificateRequestStatus::schema());
}


}  // namespace capstan::apis::certs::v1
