// Whose request it is behind a trusted proxy (client_address.h): the issue's
// "honouring a configured trusted proxy's X-Forwarded-For", and never a client's
// own word for its address.
#include "services/gateway/client_address.h"

#include <gtest/gtest.h>

namespace metropolis::gateway {
namespace {

TEST(ClientAddresses, WithoutTrustedProxiesThePeerIsTheClient) {
  const ClientAddresses none;
  EXPECT_EQ(none.Of("203.0.113.7", ""), "203.0.113.7");
  EXPECT_EQ(none.Of("203.0.113.7", "198.51.100.1"), "203.0.113.7") << "anyone may send the header";
}

TEST(ClientAddresses, BehindATrustedProxyTheAddressItHeardFromIsTheClient) {
  const ClientAddresses proxies({"10.0.0.2", "10.0.0.3"});
  EXPECT_EQ(proxies.Of("10.0.0.2", "198.51.100.1"), "198.51.100.1");
  // Two trusted proxies in a row: the address before both.
  EXPECT_EQ(proxies.Of("10.0.0.2", "198.51.100.1, 10.0.0.3"), "198.51.100.1");
  EXPECT_EQ(proxies.Of("10.0.0.2", "2001:db8::5"), "2001:db8::5");
}

TEST(ClientAddresses, WhatTheClientWroteBeforeTheProxyIsNotBelieved) {
  const ClientAddresses proxies({"10.0.0.2"});
  // The client sent "X-Forwarded-For: 192.0.2.99"; the proxy appended the real peer.
  EXPECT_EQ(proxies.Of("10.0.0.2", "192.0.2.99, 198.51.100.1"), "198.51.100.1");
}

TEST(ClientAddresses, ARequestFromAnUntrustedPeerIsThePeersWhateverItsHeader) {
  const ClientAddresses proxies({"10.0.0.2"});
  EXPECT_EQ(proxies.Of("203.0.113.7", "10.0.0.2, 198.51.100.1"), "203.0.113.7");
}

TEST(ClientAddresses, NoHeaderOrGarbageCountsAsTheProxysOwn) {
  const ClientAddresses proxies({"10.0.0.2"});
  EXPECT_EQ(proxies.Of("10.0.0.2", ""), "10.0.0.2");
  EXPECT_EQ(proxies.Of("10.0.0.2", "not-an-address"), "10.0.0.2");
  EXPECT_EQ(proxies.Of("10.0.0.2", ", ,"), "10.0.0.2");
}

TEST(ParseTrustedProxies, AddressesOnlyEachNamedWhenBad) {
  std::vector<std::string> out;
  std::string error;
  ASSERT_TRUE(ParseTrustedProxies("10.0.0.2, ::1", &out, &error)) << error;
  EXPECT_EQ(out, (std::vector<std::string>{"10.0.0.2", "::1"}));
  ASSERT_TRUE(ParseTrustedProxies("", &out, &error));
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(ParseTrustedProxies("10.0.0.2,proxy.example", &out, &error));
  EXPECT_NE(error.find("'proxy.example'"), std::string::npos) << error;
  EXPECT_FALSE(ParseTrustedProxies("10.0.0.0/8", &out, &error));
}

}  // namespace
}  // namespace metropolis::gateway
