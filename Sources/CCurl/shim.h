#ifndef ERRAND_CCURL_SHIM_H
#define ERRAND_CCURL_SHIM_H
#include <curl/curl.h>
#if defined(__APPLE__)
#include <pthread.h>
#elif defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#endif

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadic functions, which Swift cannot call.
// Each wrapper below fixes the type of the variadic argument, so Swift sees an ordinary typed function.

/// The signature shared by CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*errand_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
/// The signature of CURLOPT_READFUNCTION.
typedef size_t (*errand_curl_read_callback)(char *buffer, size_t size, size_t count, void *userdata);
/// The signature of CURLOPT_XFERINFOFUNCTION.
typedef int (*errand_curl_xferinfo_callback)(
    void *userdata, curl_off_t download_total, curl_off_t download_now, curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode errand_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Strings are copied by libcurl (except CURLOPT_POSTFIELDS and CURLOPT_ERRORBUFFER, which Errand does not pass here).
static inline CURLcode errand_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_setopt_data_callback(
    CURL *handle, CURLoption option, errand_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_setopt_read_callback(
    CURL *handle, CURLoption option, errand_curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_setopt_xferinfo_callback(
    CURL *handle, CURLoption option, errand_curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode errand_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode errand_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode errand_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The socket of a CURLOPT_CONNECT_ONLY connection (CURLINFO_ACTIVESOCKET), which a WebSocket polls.
static inline CURLcode errand_curl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode errand_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// The signature of CURLMOPT_SOCKETFUNCTION: which events libcurl wants on a socket.
typedef int (*errand_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *userdata, void *socketdata);
/// The signature of CURLMOPT_TIMERFUNCTION: when libcurl wants `curl_multi_socket_action` for its timers next.
typedef int (*errand_curl_timer_callback)(CURLM *multi, long timeout_ms, void *userdata);

static inline CURLMcode errand_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode errand_curl_multi_setopt_socket_callback(CURLM *multi, errand_curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}

static inline CURLMcode errand_curl_multi_setopt_timer_callback(CURLM *multi, errand_curl_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

// Macros built from other macros or casts do not reach Swift; these constants do.

/// `curl_multi_socket_action`'s socket for "run the timers" (CURL_SOCKET_TIMEOUT).
static const curl_socket_t errand_curl_socket_timeout = CURL_SOCKET_TIMEOUT;

/// Returned by a write callback to pause the transfer; libcurl delivers the same bytes again on resume.
static const size_t errand_curl_writefunc_pause = CURL_WRITEFUNC_PAUSE;
/// Returned by a read callback to abort the transfer.
static const size_t errand_curl_readfunc_abort = CURL_READFUNC_ABORT;
/// Resumes a paused transfer in both directions.
static const int errand_curl_pause_continue = CURLPAUSE_CONT;
/// Returned by a read callback to pause sending until the transfer is resumed.
static const size_t errand_curl_readfunc_pause = CURL_READFUNC_PAUSE;
/// Keeps receiving paused while sending resumes.
static const int errand_curl_pause_recv = CURLPAUSE_RECV;
/// Lets HTTP/2 transfers share one connection.
static const long errand_curl_pipe_multiplex = CURLPIPE_MULTIPLEX;
/// The size libcurl's error buffer must have.
static const size_t errand_curl_error_size = CURL_ERROR_SIZE;

/// Names the calling thread for profilers and `top -H` (Foundation's `Thread.name` does not reach the kernel on Linux).
static inline void errand_name_this_thread(const char *name) {
#if defined(__APPLE__)
    pthread_setname_np(name);
#elif defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#endif
}

#endif
