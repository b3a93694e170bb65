// What an admission webhook answers the API server (network input from a service the cluster
// admin configured, possibly buggy or hostile): parse_admission_response for both review
// versions, validating and mutating. Its documented failures are ReviewDecodeError (not an
// AdmissionReview) and ReviewInvalidError (not a valid answer). It only base64-decodes the
// patch: whether that is JSON is the caller's check (webhook_admission.cpp), as upstream's
// dispatcher decodes the patch after the review. Invariant: a patch comes with its type.
#include "apiserver/admission/admission_review.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace capstan;
using namespace capstan::apiserver::admission;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  for (std::string_view version : {"v1", "v1beta1"}) {
    for (bool mutating : {false, true}) {
      try {
        ReviewResponse r = parse_admission_response(body, version, "705ab4f5-6393-11e8-b7cc-42010a800002", mutating);
        if (mutating && version == "v1" && r.patch.empty() != r.patch_type.empty()) std::abort();
      } catch (const ReviewDecodeError&) {
      } catch (const ReviewInvalidError&) {
      }
    }
  }
  std::string error;
  (void)decode_base64_bytes(body, &error);
  return 0;
}
