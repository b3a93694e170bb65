#include "controllers/monitoring/references.h"

#include "runtime/client/client.h"
#include "runtime/client/config.h"

#include <gtest/gtest.h>

namespace capstan::monitoring {
namespace {

// The bookkeeping alone (no watch started, no controller attached: changed() counts readers).
TEST(ReferencedObjects, ReadersFollowWhatTheyLastRead) {
  client::Config cfg;
  cfg.server = "https://127.0.0.1:1";
  client::Client client(cfg);
  ReferencedObjects refs(client);
  refs.record("prometheus", {"obs", "main"}, {"secret/obs/auth", "configmap/obs/ca"});
  refs.record("scrapeconfigs-bindings", {"obs", "exporter"}, {"secret/obs/auth"});
  EXPECT_EQ(refs.readers(), 2u);
  EXPECT_EQ(refs.changed("secret/obs/auth"), 2u);
  EXPECT_EQ(refs.changed("configmap/obs/ca"), 1u);
  EXPECT_EQ(refs.changed("secret/other/auth"), 0u);
  // The next reconcile read something else: only that wakes it now.
  refs.record("prometheus", {"obs", "main"}, {"secret/obs/token"});
  EXPECT_EQ(refs.changed("configmap/obs/ca"), 0u);
  EXPECT_EQ(refs.changed("secret/obs/auth"), 1u);
  EXPECT_EQ(refs.changed("secret/obs/token"), 1u);
  // Deleted (or reading nothing): forgotten.
  refs.record("prometheus", {"obs", "main"}, {});
  refs.record("scrapeconfigs-bindings", {"obs", "exporter"}, {});
  EXPECT_EQ(refs.readers(), 0u);
  EXPECT_EQ(refs.changed("secret/obs/auth"), 0u);
}

}  // namespace
}  // namespace capstan::monitoring
