#ifndef TODO_CCURLSHIM_H
#define TODO_CCURLSHIM_H
// Typed, non-variadic doors to libcurl's variadic calls (Swift cannot call C variadics), and
// the values of macros Swift cannot import (casts and shifts).
#include <curl/curl.h>

typedef size_t (*todo_curl_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode todo_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode todo_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode todo_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode todo_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode todo_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_WRITEDATA.
CURLcode todo_curl_setopt_write(CURL *handle, todo_curl_data_callback callback, void *context);
/// CURLOPT_HEADERFUNCTION and CURLOPT_HEADERDATA.
CURLcode todo_curl_setopt_header(CURL *handle, todo_curl_data_callback callback, void *context);

CURLcode todo_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

CURLMcode todo_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// CURLAUTH_BASIC | CURLAUTH_DIGEST.
long todo_curlauth_basic_digest(void);
/// CURLAUTH_BASIC, CURLAUTH_DIGEST.
long todo_curlauth_basic(void);
long todo_curlauth_digest(void);
long todo_curl_global_all(void);
/// libcurl's version number ("7.88.1"), from curl_version_info: unlike curl_version(), which
/// asks OpenLDAP for its version and so initialises it (loading every SASL plugin, a few ms).
const char *todo_curl_version_number(void);
#endif
