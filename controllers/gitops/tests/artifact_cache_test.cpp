// The bounded cache of recent artifacts' files.
#include "controllers/gitops/artifact_cache.h"

#include <gtest/gtest.h>

namespace capstan::gitops {
namespace {

// A listing of one entry taking 1 + 64 + `bytes` bytes.
std::shared_ptr<const ArtifactListing> files_of(std::size_t bytes) {
  return std::make_shared<const ArtifactListing>(ArtifactListing{{"f", ArtifactEntry{std::string(bytes, 'x'), "", 0}}});
}

TEST(ArtifactCache, KeepsTheMostRecentlyUsedWithinItsEntryAndByteBounds) {
  ArtifactCache cache(2, 1000);
  cache.put("a", files_of(100));
  cache.put("b", files_of(100));
  ASSERT_NE(cache.get("a"), nullptr);  // a is now the most recent
  cache.put("c", files_of(100));       // over two entries: b goes
  EXPECT_EQ(cache.get("b"), nullptr);
  EXPECT_NE(cache.get("a"), nullptr);
  EXPECT_NE(cache.get("c"), nullptr);
  EXPECT_EQ(cache.bytes(), 2u * 165u);

  cache.put("big", files_of(800));  // over the bytes: the others go
  EXPECT_NE(cache.get("big"), nullptr);
  EXPECT_EQ(cache.get("a"), nullptr);
  EXPECT_EQ(cache.get("c"), nullptr);
  cache.put("huge", files_of(5000));  // larger than the cache: not kept, nothing else dropped
  EXPECT_EQ(cache.get("huge"), nullptr);
  EXPECT_NE(cache.get("big"), nullptr);
  cache.put("big", files_of(10));  // a key put again replaces its entry
  EXPECT_EQ(cache.bytes(), 75u);
}

}  // namespace
}  // namespace capstan::gitops
