#include "services/gateway/static_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace metropolis::gateway {
namespace {

namespace fs = std::filesystem;

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/gateway-static-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base_ = tmpl;
    fs::create_directories(base_ + "/web/assets");
    fs::create_directories(base_ + "/web/docs");
    Write(base_ + "/web/index.html", "<html>");
    Write(base_ + "/web/assets/app-1a2b.js", "js");
    Write(base_ + "/web/docs/index.html", "docs");
    Write(base_ + "/web/.env", "secret");
    Write(base_ + "/secret.txt", "outside");
    fs::create_symlink(base_ + "/secret.txt", base_ + "/web/link.txt");
    char real[PATH_MAX];
    ASSERT_NE(::realpath((base_ + "/web").c_str(), real), nullptr);
    root_ = real;
  }
  void TearDown() override { fs::remove_all(base_); }
  static void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  std::string base_, root_;
};

TEST_F(StaticFiles, FilesIndexesAndAppRoutes) {
  StaticFile f;
  ASSERT_TRUE(ResolveStaticFile(root_, "/", &f));
  EXPECT_EQ(f.path, root_ + "/index.html");
  EXPECT_EQ(f.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(f.cache_control, "no-cache");
  EXPECT_EQ(f.size, 6u);
  ASSERT_TRUE(ResolveStaticFile(root_, "/assets/app-1a2b.js", &f));
  EXPECT_EQ(f.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(f.cache_control, "public, max-age=31536000, immutable");
  ASSERT_TRUE(ResolveStaticFile(root_, "/docs", &f));
  EXPECT_EQ(f.path, root_ + "/docs/index.html");
  // A route of the web app: index.html answers.
  ASSERT_TRUE(ResolveStaticFile(root_, "/players/alice", &f));
  EXPECT_EQ(f.path, root_ + "/index.html");
  // A missing file with an extension is not a route.
  EXPECT_FALSE(ResolveStaticFile(root_, "/assets/missing.js", &f));
}

TEST_F(StaticFiles, NothingOutsideTheRoot) {
  StaticFile f;
  EXPECT_FALSE(ResolveStaticFile(root_, "/../secret.txt", &f));
  EXPECT_FALSE(ResolveStaticFile(root_, "/assets/../../secret.txt", &f));
  EXPECT_FALSE(ResolveStaticFile(root_, "/link.txt", &f));  // a symbolic link out of the root
  EXPECT_FALSE(ResolveStaticFile(root_, "/.env", &f));
  EXPECT_FALSE(ResolveStaticFile(root_, "/..\\secret.txt", &f));
  EXPECT_FALSE(ResolveStaticFile(root_, "relative", &f));
  EXPECT_FALSE(ResolveStaticFile(root_, std::string("/index.html\0x", 13), &f));
}

TEST(ContentType, ByExtension) {
  EXPECT_EQ(ContentTypeFor("/a/b.CSS"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("x.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("x.woff2"), "font/woff2");
  EXPECT_EQ(ContentTypeFor("x.json"), "application/json");
  EXPECT_EQ(ContentTypeFor("a.d/readme"), "application/octet-stream");
  EXPECT_EQ(ContentTypeFor("x.exe"), "application/octet-stream");
}

}  // namespace
}  // namespace metropolis::gateway
