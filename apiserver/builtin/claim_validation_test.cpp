#include "apiserver/builtin/claim_validation.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::builtin {
namespace {

std::vector<std::string> errors(const json::Value& claim, const json::Value& old) {
  std::vector<std::string> out;
  for (const auto& c : validate_claim_update(claim, old)) out.push_back(c.error());
  return out;
}

json::Value claim(const std::string& spec, const std::string& status) {
  return json::from_yaml("metadata: {name: data-0}\nspec: " + spec + "\nstatus: " + status);
}

constexpr const char* kBound = "{phase: Bound, capacity: {storage: 10Gi}}";
constexpr const char* kPending = "{phase: Pending}";

TEST(ClaimUpdate, ABoundClaimGrowsAndShrinksOnlyAboveItsCapacity) {
  const auto old = claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}, storageClassName: fast, volumeName: pv-1}", kBound);
  EXPECT_TRUE(errors(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 30Gi}}, storageClassName: fast, volumeName: pv-1}", kBound), old).empty());
  EXPECT_TRUE(errors(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 15Gi}}, storageClassName: fast, volumeName: pv-1}", kBound), old).empty())
      << "back down towards a capacity that did not grow (recovery from a failed expansion)";
  EXPECT_EQ(errors(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}, storageClassName: fast, volumeName: pv-1}", kBound), old),
            std::vector<std::string>{"spec.resources.requests.storage: Forbidden: field can not be less than status.capacity"});
}

TEST(ClaimUpdate, TheRestOfTheSpecIsImmutable) {
  const auto old = claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}, storageClassName: fast, volumeName: pv-1}", kBound);
  EXPECT_EQ(errors(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}, storageClassName: slow, volumeName: pv-1}", kBound), old),
            std::vector<std::string>{"spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName "
                                     "for bound claims"});
  const auto pending = claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}", kPending);
  EXPECT_EQ(errors(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}}", kPending), pending).size(), 1u)
      << "an unbound claim keeps its request";
  EXPECT_TRUE(errors(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}, volumeName: pv-2, storageClassName: std}", kBound),
                     pending)
                  .empty())
      << "bound once, and a class given where there was none";
}

}  // namespace
}  // namespace capstan::apiserver::builtin
