// libcurl from the system (Debian: libcurl4-openssl-dev). The typed setters that Swift needs
// (curl_easy_setopt is variadic) are in the CCurlShim target.
#include <curl/curl.h>
