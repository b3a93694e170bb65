// CRD version conversion as apiextensions-apiserver does it. Strategy None rewrites apiVersion;
// strategy Webhook POSTs one ConversionReview (apiextensions.k8s.io/v1, or v1beta1 when that is
// the first supported of conversionReviewVersions) holding every object not yet in the desired
// version, checks the answer (uid, result, count, order, apiVersion, kind, name, namespace,
// uid) and restores all metadata except labels and annotations from the originals
// (webhook_converter.go). Failures throw a 500 ApiError with upstream's text,
// `conversion webhook for <group>/<version>, Kind=<Kind> failed: ...`.
#pragma once

#include "apiserver/admission/webhook_client.h"
#include "apiserver/rest/hooks.h"
#include "apiserver/storage/store.h"

namespace capstan::apiserver::admission {

class WebhookConverter : public rest::Converter {
 public:
  explicit WebhookConverter(storage::Store& store);

  // Several objects (a list) are converted in one review; upstream then names the list kind
  // ("Kind=CertificateList") in errors, a single object its kind.
  void convert(const registry::ResourceInfo& r, std::vector<json::Value*>& objects, std::string_view to_version) override;

 private:
  WebhookClient client_;
};

// restoreObjectMeta: `converted`'s metadata becomes `original`'s, keeping `converted`'s labels
// and annotations (validated when they changed). Returns the error text, or "" on success.
std::string restore_object_meta(const json::Value& original, json::Value& converted);

}  // namespace capstan::apiserver::admission
