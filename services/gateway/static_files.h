// The web app's files: a request path mapped to a file under the web root, never
// outside it, with its content type. Plain functions over the file system.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace metropolis::gateway {

struct StaticFile {
  std::string path;          // the file to send
  std::string content_type;  // e.g. "text/html; charset=utf-8"
  std::string cache_control;
  std::string etag;  // from size and modification time
  uint64_t size = 0;
};

// The file for `uri_path` (already %-decoded) under `root` (a canonical path,
// as realpath gives it):
//   - a directory, "/" included, means its index.html;
//   - a path whose last segment has no '.' and names nothing is one of the web
//     app's own routes (/players/alice): the root's index.html answers it;
//   - a segment "..", ".", or starting with '.' (.git, .env), a backslash, or a
//     file whose real path (symbolic links followed) leaves the root: not found,
//     as is anything but a regular file.
// False when there is no such file.
bool ResolveStaticFile(const std::string& root, std::string_view uri_path, StaticFile* out);

// By extension; "application/octet-stream" for an unknown one.
std::string ContentTypeFor(std::string_view path);

}  // namespace metropolis::gateway
