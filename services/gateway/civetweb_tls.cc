// What Debian's civetweb needs to serve HTTPS with OpenSSL 3, as a shared library
// the gateway loads before asking civetweb for TLS (server.cc).
//
// Debian's civetweb 1.15 is built to load OpenSSL at run time: it dlopen()s
// "libssl.so" and looks up every function it uses, and gives up when one is
// missing. OpenSSL 3 renamed SSL_get_peer_certificate to SSL_get1_peer_certificate
// (the old name is only a macro now), so with OpenSSL 3 civetweb refuses TLS
// altogether. This library is linked with the SONAME "libssl.so": once it is
// loaded, civetweb's dlopen("libssl.so") finds it (the dynamic loader matches a
// loaded library by SONAME), and every lookup in it finds either the function
// below or, through its dependency, the real one in libssl.so.3.
#include <openssl/ssl.h>

// OpenSSL 3 defines the old name as a macro for the new one: the function below
// must have the old name.
#undef SSL_get_peer_certificate

extern "C" {

__attribute__((visibility("default"))) X509* SSL_get_peer_certificate(const SSL* ssl) {
  return SSL_get1_peer_certificate(ssl);
}

}  // extern "C"
