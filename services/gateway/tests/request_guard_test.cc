// The rules every answer and every POST of the gateway follow (request_guard.h),
// found missing by an outside client: no security headers, and sign-up and
// sign-in accepted as text/plain from any site (cross-site sign-ups, login CSRF).
#include "services/gateway/request_guard.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace metropolis::gateway {
namespace {

TEST(SecurityHeaders, EveryAnswerForbidsSniffingFramingAndForeignContent) {
  std::map<std::string, std::string> headers;
  for (const auto& [name, value] : SecurityHeaders()) headers[name] = value;
  EXPECT_EQ(headers["X-Content-Type-Options"], "nosniff");
  EXPECT_EQ(headers["X-Frame-Options"], "DENY");
  const std::string& csp = headers["Content-Security-Policy"];
  EXPECT_NE(csp.find("default-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("script-src 'self';"), std::string::npos) << "no inline or foreign script: " << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_FALSE(headers["Referrer-Policy"].empty());
}

ApiError Refusal(const PostHeaders& headers) {
  ApiError error;
  EXPECT_FALSE(CheckPost(headers, &error));
  return error;
}

TEST(CheckPost, AJsonBodyFromThisSiteOrFromNoBrowserPasses) {
  ApiError error;
  EXPECT_TRUE(CheckPost({"application/json", "http://play.example:8080", "play.example:8080", true}, &error));
  EXPECT_TRUE(CheckPost({"Application/JSON; charset=utf-8", "https://PLAY.example", "play.example", true}, &error));
  EXPECT_TRUE(CheckPost({"application/json", "", "play.example", true}, &error)) << "curl, a bot: no Origin";
  EXPECT_TRUE(CheckPost({"", "", "play.example", false}, &error)) << "no body, nothing to declare";
}

TEST(CheckPost, ABodyThatIsNotDeclaredJsonIs415) {
  // What another site's form or fetch may send without a preflight.
  for (const char* type : {"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", ""}) {
    const ApiError e = Refusal({type, "", "play.example", true});
    EXPECT_EQ(e.http, 415) << type;
    EXPECT_EQ(e.status, "UNSUPPORTED_MEDIA_TYPE") << type;
    EXPECT_NE(e.message.find("application/json"), std::string::npos) << e.message;
  }
}

TEST(CheckPost, ARequestFromAnotherSiteIs403WhateverItsBody) {
  for (const char* origin : {"https://evil.example", "http://play.example.evil.example", "null", "file://"}) {
    const ApiError e = Refusal({"application/json", origin, "play.example", true});
    EXPECT_EQ(e.http, 403) << origin;
    EXPECT_EQ(e.status, "PERMISSION_DENIED") << origin;
  }
  // Another port is another origin.
  EXPECT_EQ(Refusal({"application/json", "http://play.example:9090", "play.example:8080", true}).http, 403);
}

TEST(CheckPost, ALongOriginOrTypeIsQuotedShort) {
  const ApiError e = Refusal({std::string(5000, 't'), "", "h", true});
  EXPECT_LT(e.message.size(), 200u);
}

}  // namespace
}  // namespace metropolis::gateway
