#ifndef SEGUE_CCRYPTO_SHIM_H
#define SEGUE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, imported by SegueService only (WebhookSignature): HMAC-SHA256 through EVP_Q_mac (OpenSSL 3's
// one-call MAC), so that Segue hand-writes no hash.
#include <openssl/evp.h>
#include <openssl/err.h>
#endif
