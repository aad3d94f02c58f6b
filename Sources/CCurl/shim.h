#ifndef ERRAND_CCURL_SHIM_H
#define ERRAND_CCURL_SHIM_H
#include <curl/curl.h>
#endif
