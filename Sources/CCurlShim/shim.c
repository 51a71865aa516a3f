#include "CCurlShim.h"

CURLcode todo_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode todo_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode todo_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode todo_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode todo_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode todo_curl_setopt_write(CURL *handle, todo_curl_data_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

CURLcode todo_curl_setopt_header(CURL *handle, todo_curl_data_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

CURLcode todo_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode todo_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

long todo_curlauth_basic_digest(void) { return (long)(CURLAUTH_BASIC | CURLAUTH_DIGEST); }

long todo_curlauth_basic(void) { return (long)CURLAUTH_BASIC; }

long todo_curlauth_digest(void) { return (long)CURLAUTH_DIGEST; }

long todo_curl_global_all(void) { return CURL_GLOBAL_ALL; }
const char *todo_curl_version_number(void) { return curl_version_info(CURLVERSION_NOW)->version; }
