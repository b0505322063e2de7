#include "services/gateway/static_files.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <utility>

namespace metropolis::gateway {
namespace {

bool SafeSegments(std::string_view path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos) return false;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (!segment.empty() && segment[0] == '.') return false;  // "..", "." and hidden files
    start = end + 1;
  }
  return true;
}

// The real path of `candidate` if it is a regular file inside `root`.
bool RegularFileUnder(const std::string& root, const std::string& candidate, std::string* real, struct stat* st) {
  char buffer[PATH_MAX];
  if (!::realpath(candidate.c_str(), buffer)) return false;
  const std::string resolved = buffer;
  if (resolved.size() <= root.size() || resolved.compare(0, root.size(), root) != 0 || resolved[root.size()] != '/')
    return false;
  if (::stat(resolved.c_str(), st) != 0 || !S_ISREG(st->st_mode)) return false;
  *real = resolved;
  return true;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string ContentTypeFor(std::string_view path) {
  static const std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".woff", "font/woff"},
      {".ttf", "font/ttf"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
  };
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return "application/octet-stream";
  std::string ext(path.substr(dot));
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [e, type] : kTypes)
    if (ext == e) return std::string(type);
  return "application/octet-stream";
}

bool ResolveStaticFile(const std::string& root, std::string_view uri_path, StaticFile* out) {
  if (!SafeSegments(uri_path)) return false;
  std::string candidate = root + std::string(uri_path);
  if (uri_path.back() == '/' || IsDirectory(candidate)) {
    if (candidate.back() != '/') candidate.push_back('/');
    candidate += "index.html";
  }
  std::string real;
  struct stat st;
  if (!RegularFileUnder(root, candidate, &real, &st)) {
    // The web app's own routes have no file: its index.html serves them.
    const std::string_view last = uri_path.substr(uri_path.rfind('/') + 1);
    if (last.find('.') != std::string_view::npos) return false;
    if (!RegularFileUnder(root, root + "/index.html", &real, &st)) return false;
  }
  out->path = real;
  out->content_type = ContentTypeFor(real);
  out->size = uint64_t(st.st_size);
  out->etag = "\"" + std::to_string(st.st_size) + "-" + std::to_string(st.st_mtim.tv_sec) + "." +
              std::to_string(st.st_mtim.tv_nsec) + "\"";
  // A bundler's hashed assets (Vite's assets/) never change under a name; the
  // rest (index.html first) is revalidated with its ETag on every load.
  out->cache_control =
      real.compare(root.size(), 8, "/assets/") == 0 ? "public, max-age=31536000, immutable" : "no-cache";
  return true;
}

}  // namespace metropolis::gateway
