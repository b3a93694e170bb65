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

// Started (as leader), the watches run only while someone reads a Secret or ConfigMap.
TEST(ReferencedObjects, NoReaderNoWatch) {
  client::Config cfg;
  cfg.server = "https://127.0.0.1:1";  // nothing listens: the watches retry until stopped
  client::Client client(cfg);
  ReferencedObjects refs(client);
  refs.record("prometheus", {"obs", "early"}, {"secret/obs/auth"});
  EXPECT_FALSE(refs.watching());  // not started
  refs.record("prometheus", {"obs", "early"}, {});
  refs.start();
  EXPECT_FALSE(refs.watching());  // started, but nobody reads
  refs.record("prometheus", {"obs", "main"}, {"secret/obs/auth"});
  EXPECT_TRUE(refs.watching());
  refs.stop();
  EXPECT_FALSE(refs.watching());
}

}  // namespace
}  // namespace capstan::monitoring
