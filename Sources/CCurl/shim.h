#ifndef SEGUE_CCURL_SHIM_H
#define SEGUE_CCURL_SHIM_H
// libcurl, imported by SegueService only (WebhookDelivery): the webhooks `segue serve` POSTs when a render ends.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these typed wrappers call them.
#include <curl/curl.h>

static inline CURLcode segue_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode segue_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode segue_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode segue_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
// The response body is not wanted (only the status is): drop it rather than have curl write it to stdout.
static size_t segue_curl_discard(char *data, size_t size, size_t count, void *user) {
    (void)data; (void)user;
    return size * count;
}
static inline CURLcode segue_curl_discard_body(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, segue_curl_discard);
}
static inline CURLcode segue_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
// Called with each address libcurl is about to connect to (CURLOPT_OPENSOCKETFUNCTION): `segue serve` checks it against
// the addresses webhooks may go to (CallbackAddresses) and returns CURL_SOCKET_BAD to refuse it.
static inline CURLcode segue_curl_set_opensocket(CURL *handle, curl_opensocket_callback callback, void *data) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, data);
}
#endif
