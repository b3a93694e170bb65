// certificates.k8s.io/v1 (k8s.io/api/certificates/v1): CertificateSigningRequest
// (`kubectl certificate approve|deny` PUTs it to the /approval subresource).
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define CERTS "k8s.io.api.certificates.v1."

PB_SPECIAL(kCertificatesExtraValue, CERTS "ExtraValue", Special::StringList, list(str(1, "items")));
PB_MESSAGE(kCertificateSigningRequestSpec, CERTS "CertificateSigningRequestSpec",
           bytes(1, "request", kKeepZero),
           str(7, "signerName", kKeepZero),
           i32(8, "expirationSeconds", kKeepZero),
           list(str(5, "usages")),
           str(2, "username"),
           str(3, "uid"),
           list(str(4, "groups")),
           map_of(msg(6, "extra", kCertificatesExtraValue)));
PB_MESSAGE(kCertificateSigningRequestCondition, CERTS "CertificateSigningRequestCondition",
           str(1, "type", kKeepZero), str(6, "status", kKeepZero), str(2, "reason"), str(3, "message"),
           msg(4, "lastUpdateTime", kTime), msg(5, "lastTransitionTime", kTime));
PB_MESSAGE(kCertificateSigningRequestStatus, CERTS "CertificateSigningRequestStatus",
           list(msg(1, "conditions", kCertificateSigningRequestCondition)), bytes(2, "certificate"));
PB_MESSAGE(kCertificateSigningRequest, CERTS "CertificateSigningRequest",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kCertificateSigningRequestSpec, kValue),
           msg(3, "status", kCertificateSigningRequestStatus, kValue));

#undef CERTS

}  // namespace capstan::apiserver::protobuf::schema
