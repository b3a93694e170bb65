// The CertificateRequest schema (cert-manager's deploy/crds/cert-manager.io_certificaterequests.yaml).
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/openapi.h"
#include "apis/certs/v1/schema_common.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;

namespace {

Schema spec() {
  Schema ref = openapi::issuer_ref();
  // cert-manager's CRD defaults the group of a CertificateRequest's issuerRef.
  Schema group = Schema::string("API group of the issuer; defaults to certs.capstan.dev.");
  group.default_value(json::Value(json::String(kGroup)));
  ref.property("group", group);

  return std::move(
      Schema::object("Desired state of the CertificateRequest; immutable once created.")
          .property("request", Schema::bytes("The PEM-encoded PKCS#10 certificate signing request (base64 in JSON). Its "
                                             "key usages and isCA must match the fields below when both are set.")
                                  .max_length(256 * 1024))
          .property("issuerRef", ref)
          .property("duration", Schema::string("Requested lifetime as a Go duration; the issuer may ignore it."))
          .property("isCA", Schema::boolean("Request a CA certificate; adds the cert sign usage."))
          .property("usages", openapi::usages("Requested key usages and extended key usages. Default: digital "
                                              "signature and key encipherment."))
          .property("username", Schema::string("User who created the request; set by the webhook."))
          .property("uid", Schema::string("UID of the user who created the request; set by the webhook."))
          .property("groups", Schema::strings("Groups of the user who created the request; set by the webhook.").max_items(1024))
          .property("extra", Schema::map(Schema::strings(), "Extra attributes of the user who created the request; set "
                                                            "by the webhook."))
          .required({"issuerRef", "request"}));
}

Schema status() {
  return std::move(
      Schema::object("Observed state of the CertificateRequest, set by the controllers.")
          .property("conditions", openapi::conditions("Conditions: Ready, Approved, Denied and InvalidRequest.",
                                                      "Ready, InvalidRequest, Approved, Denied", false))
          .property("certificate", Schema::bytes("The signed certificate chain, PEM, leaf first (base64 in JSON). Unset "
                                                 "until issued."))
          .property("ca", Schema::bytes("The PEM certificate of the signing CA, when the issuer knows it (base64 in "
                                        "JSON)."))
          .property("failureTime", Schema::date_time("When the request failed; drives back-off and garbage collection.")));
}

}  // namespace

json::Value certificate_request_schema() {
  return openapi::root("A CertificateRequest is a one-shot request for a signed certificate from an issuer. Its spec is "
                       "immutable; it ends Ready (status.certificate set) or failed (status.failureTime set).",
                       spec(), status())
      .json();
}

}  // namespace capstan::apis::certs::v1
