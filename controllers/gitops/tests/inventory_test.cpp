#include "controllers/gitops/inventory.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::gitops {
namespace {

TEST(GitopsInventory, IdsAsFlux) {
  InventoryEntry deploy{"shop", "web", "apps", "Deployment", "v1"};
  EXPECT_EQ(deploy.id(), "shop_web_apps_Deployment");
  EXPECT_EQ(deploy.display(), "Deployment/shop/web");
  InventoryEntry ns{"", "shop", "", "Namespace", "v1"};
  EXPECT_EQ(ns.id(), "_shop__Namespace");
  EXPECT_EQ(ns.display(), "Namespace/shop");

  InventoryEntry parsed;
  ASSERT_TRUE(InventoryEntry::parse("_shop__Namespace", "v1", parsed));
  EXPECT_EQ(parsed.ns, "");
  EXPECT_EQ(parsed.name, "shop");
  EXPECT_EQ(parsed.group, "");
  EXPECT_EQ(parsed.kind, "Namespace");
  EXPECT_FALSE(InventoryEntry::parse("a_b_c", "v1", parsed));
  EXPECT_FALSE(InventoryEntry::parse("a__c_D", "v1", parsed));  // no name
  EXPECT_FALSE(InventoryEntry::parse("a_b_c_D", "", parsed));
}

TEST(GitopsInventory, RoundTripsThroughStatusSortedAndDiffs) {
  std::vector<InventoryEntry> before{{"shop", "web", "apps", "Deployment", "v1"}, {"shop", "cfg", "", "ConfigMap", "v1"},
                                     {"", "shop", "", "Namespace", "v1"}};
  const auto inventory = to_inventory(before);
  EXPECT_EQ(json::serialize(inventory.to_json()),
            R"({"entries":[{"id":"_shop__Namespace","v":"v1"},{"id":"shop_cfg__ConfigMap","v":"v1"},{"id":"shop_web_apps_Deployment","v":"v1"}]})");
  auto read = read_inventory(v1::ResourceInventory::from_json(inventory.to_json(), "status.inventory"));
  ASSERT_EQ(read.size(), 3u);
  std::vector<InventoryEntry> after{{"shop", "web", "apps", "Deployment", "v1"}, {"", "shop", "", "Namespace", "v1"}};
  auto gone = removed_entries(read, after);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].id(), "shop_cfg__ConfigMap");
}

}  // namespace
}  // namespace capstan::gitops
