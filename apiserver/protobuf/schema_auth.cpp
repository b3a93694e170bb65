// authentication.k8s.io/v1 (TokenRequest — `kubectl create token` —, TokenReview,
// SelfSubjectReview — `kubectl auth whoami`) and authorization.k8s.io/v1 (SelfSubjectAccessReview —
// `kubectl auth can-i` —, SelfSubjectRulesReview — `kubectl auth can-i --list` —,
// SubjectAccessReview, LocalSubjectAccessReview).
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define AUTHN "k8s.io.api.authentication.v1."
#define AUTHZ "k8s.io.api.authorization.v1."

// --- authentication.k8s.io/v1 ------------------------------------------------------------------------
PB_SPECIAL(kAuthnExtraValue, AUTHN "ExtraValue", Special::StringList, list(str(1, "items")));
PB_MESSAGE(kUserInfo, AUTHN "UserInfo",
           str(1, "username"), str(2, "uid"), list(str(3, "groups")), map_of(msg(4, "extra", kAuthnExtraValue)));

// The proto field of uid is spelled uID.
PB_MESSAGE(kBoundObjectReference, AUTHN "BoundObjectReference",
           str(1, "kind"), str(2, "apiVersion"), str(3, "name"), str(4, "uid"));
PB_MESSAGE(kTokenRequestSpec, AUTHN "TokenRequestSpec",
           list(str(1, "audiences", kKeepZero)), i64(4, "expirationSeconds", kKeepZero),
           msg(3, "boundObjectRef", kBoundObjectReference));
PB_MESSAGE(kTokenRequestStatus, AUTHN "TokenRequestStatus",
           str(1, "token", kKeepZero), msg(2, "expirationTimestamp", kTime));
PB_MESSAGE(kTokenRequest, AUTHN "TokenRequest",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kTokenRequestSpec, kValue), msg(3, "status", kTokenRequestStatus, kValue));

PB_MESSAGE(kTokenReviewSpec, AUTHN "TokenReviewSpec", str(1, "token"), list(str(2, "audiences")));
PB_MESSAGE(kTokenReviewStatus, AUTHN "TokenReviewStatus",
           boolean(1, "authenticated"), msg(2, "user", kUserInfo, kValue), list(str(4, "audiences")), str(3, "error"));
PB_MESSAGE(kTokenReview, AUTHN "TokenReview",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kTokenReviewSpec, kValue), msg(3, "status", kTokenReviewStatus, kValue));

PB_MESSAGE(kSelfSubjectReviewStatus, AUTHN "SelfSubjectReviewStatus", msg(1, "userInfo", kUserInfo, kValue));
PB_MESSAGE(kSelfSubjectReview, AUTHN "SelfSubjectReview",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "status", kSelfSubjectReviewStatus, kValue));

// --- authorization.k8s.io/v1 -------------------------------------------------------------------------
PB_SPECIAL(kAuthzExtraValue, AUTHZ "ExtraValue", Special::StringList, list(str(1, "items")));
PB_MESSAGE(kFieldSelectorAttributes, AUTHZ "FieldSelectorAttributes",
           str(1, "rawSelector"), list(msg(2, "requirements", kFieldSelectorRequirement)));
PB_MESSAGE(kLabelSelectorAttributes, AUTHZ "LabelSelectorAttributes",
           str(1, "rawSelector"), list(msg(2, "requirements", kLabelSelectorRequirement)));
PB_MESSAGE(kResourceAttributes, AUTHZ "ResourceAttributes",
           str(1, "namespace"),
           str(2, "verb"),
           str(3, "group"),
           str(4, "version"),
           str(5, "resource"),
           str(6, "subresource"),
           str(7, "name"),
           msg(8, "fieldSelector", kFieldSelectorAttributes),
           msg(9, "labelSelector", kLabelSelectorAttributes));
PB_MESSAGE(kNonResourceAttributes, AUTHZ "NonResourceAttributes", str(1, "path"), str(2, "verb"));
PB_MESSAGE(kSubjectAccessReviewStatus, AUTHZ "SubjectAccessReviewStatus",
           boolean(1, "allowed", kKeepZero), boolean(4, "denied"), str(2, "reason"), str(3, "evaluationError"));

PB_MESSAGE(kSelfSubjectAccessReviewSpec, AUTHZ "SelfSubjectAccessReviewSpec",
           msg(1, "resourceAttributes", kResourceAttributes),
           msg(2, "nonResourceAttributes", kNonResourceAttributes));
PB_MESSAGE(kSelfSubjectAccessReview, AUTHZ "SelfSubjectAccessReview",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kSelfSubjectAccessReviewSpec, kValue),
           msg(3, "status", kSubjectAccessReviewStatus, kValue));

PB_MESSAGE(kSubjectAccessReviewSpec, AUTHZ "SubjectAccessReviewSpec",
           msg(1, "resourceAttributes", kResourceAttributes),
           msg(2, "nonResourceAttributes", kNonResourceAttributes),
           str(3, "user"),
           list(str(4, "groups")),
           map_of(msg(5, "extra", kAuthzExtraValue)),
           str(6, "uid"));
PB_MESSAGE(kSubjectAccessReview, AUTHZ "SubjectAccessReview",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kSubjectAccessReviewSpec, kValue),
           msg(3, "status", kSubjectAccessReviewStatus, kValue));
PB_MESSAGE(kLocalSubjectAccessReview, AUTHZ "LocalSubjectAccessReview",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kSubjectAccessReviewSpec, kValue),
           msg(3, "status", kSubjectAccessReviewStatus, kValue));

PB_MESSAGE(kResourceRule, AUTHZ "ResourceRule",
           list(str(1, "verbs", kKeepZero)), list(str(2, "apiGroups")), list(str(3, "resources")),
           list(str(4, "resourceNames")));
PB_MESSAGE(kNonResourceRule, AUTHZ "NonResourceRule", list(str(1, "verbs", kKeepZero)), list(str(2, "nonResourceURLs")));
PB_MESSAGE(kSelfSubjectRulesReviewSpec, AUTHZ "SelfSubjectRulesReviewSpec", str(1, "namespace"));
PB_MESSAGE(kSubjectRulesReviewStatus, AUTHZ "SubjectRulesReviewStatus",
           list(msg(1, "resourceRules", kResourceRule, kKeepZero)),
           list(msg(2, "nonResourceRules", kNonResourceRule, kKeepZero)),
           boolean(3, "incomplete", kKeepZero),
           str(4, "evaluationError"));
PB_MESSAGE(kSelfSubjectRulesReview, AUTHZ "SelfSubjectRulesReview",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kSelfSubjectRulesReviewSpec, kValue),
           msg(3, "status", kSubjectRulesReviewStatus, kValue));

#undef AUTHN
#undef AUTHZ

}  // namespace capstan::apiserver::protobuf::schema
