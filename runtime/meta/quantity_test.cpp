#include "runtime/meta/quantity.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

namespace capstan::meta {
namespace {

TEST(Quantity, ValuesOfEverySuffixKind) {
  EXPECT_EQ(quantity_value("10Gi"), 10.0L * 1073741824.0L);
  EXPECT_EQ(quantity_value("500M"), 5e8L);
  EXPECT_EQ(quantity_value("1e3"), 1000.0L);
  EXPECT_EQ(quantity_value("2E-1"), 2 * std::pow(10.0L, -1));
  EXPECT_EQ(quantity_value("1.5Ki"), 1536.0L);
  EXPECT_EQ(quantity_value("+12"), 12.0L);
  EXPECT_EQ(quantity_value(".5"), 0.5L);
  EXPECT_LT(*quantity_value("9Gi"), *quantity_value("10G") + 1e9L);
}

TEST(Quantity, WhatIsNotAQuantity) {
  for (std::string q : {"10 Gi", "Gi", "-1Gi", "1.2.3", "1e", "1e1234", "1Gib", "", "."})
    EXPECT_FALSE(quantity_value(q)) << q;
  EXPECT_FALSE(quantity_value(std::string(100, '1')));
}

}  // namespace
}  // namespace capstan::meta
