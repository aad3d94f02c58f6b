/*
 * A WebSocket echo server for the benchmark, fast enough that the client, not the server, sets the pace: one
 * connection at a time (the benchmark opens one), blocking reads into one growing buffer, each message written back
 * with one writev. Every path echoes; a close frame is answered with the same payload and ends the connection.
 * It speaks only what the benchmark needs: no extensions, no UTF-8 checks, frames echoed as they come.
 *
 *   cc -O2 ws_echo.c -o ws_echo -lcrypto && ./ws_echo PORT      (0 for a free port; the port is printed)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int read_exactly(int fd, unsigned char *into, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t got = read(fd, into + done, count - done);
        if (got <= 0) return -1;
        done += (size_t)got;
    }
    return 0;
}

static int write_all(int fd, struct iovec *parts, int count) {
    while (count > 0) {
        ssize_t wrote = writev(fd, parts, count);
        if (wrote < 0) return -1;
        while (count > 0 && (size_t)wrote >= parts->iov_len) {
            wrote -= (ssize_t)parts->iov_len;
            parts++;
            count--;
        }
        if (count > 0) {
            parts->iov_base = (char *)parts->iov_base + wrote;
            parts->iov_len -= (size_t)wrote;
        }
    }
    return 0;
}

/* Reads the upgrade request and answers it with 101; -1 when it is not one. */
static int handshake(int fd) {
    char head[16384];
    size_t used = 0;
    while (used < sizeof head - 1) {
        ssize_t got = read(fd, head + used, 1);
        if (got <= 0) return -1;
        used += (size_t)got;
        head[used] = 0;
        if (used >= 4 && memcmp(head + used - 4, "\r\n\r\n", 4) == 0) break;
    }
    char *key = strcasestr(head, "\r\nSec-WebSocket-Key:");
    if (!key) return -1;
    key += strlen("\r\nSec-WebSocket-Key:");
    while (*key == ' ') key++;
    size_t length = strcspn(key, "\r\n ");
    char joined[256];
    if (length > 100) return -1;
    snprintf(joined, sizeof joined, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int)length, key);
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((unsigned char *)joined, strlen(joined), digest);
    unsigned char accept[64];
    EVP_EncodeBlock(accept, digest, SHA_DIGEST_LENGTH);
    char answer[512];
    int size = snprintf(answer, sizeof answer,
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Accept: %s\r\n\r\n",
                        accept);
    struct iovec part = {answer, (size_t)size};
    return write_all(fd, &part, 1);
}

static void serve(int fd) {
    if (handshake(fd) != 0) return;
    size_t capacity = 1 << 16;
    unsigned char *payload = malloc(capacity);
    for (;;) {
        unsigned char head[14];
        if (read_exactly(fd, head, 2) != 0) break;
        uint64_t length = head[1] & 0x7F;
        if (length == 126) {
            if (read_exactly(fd, head + 2, 2) != 0) break;
            length = (uint64_t)head[2] << 8 | head[3];
        } else if (length == 127) {
            if (read_exactly(fd, head + 2, 8) != 0) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = length << 8 | head[2 + i];
        }
        unsigned char mask[4] = {0, 0, 0, 0};
        int masked = head[1] & 0x80;
        if (masked && read_exactly(fd, mask, 4) != 0) break;
        if (length > capacity) {
            capacity = (size_t)length;
            payload = realloc(payload, capacity);
        }
        if (read_exactly(fd, payload, (size_t)length) != 0) break;
        if (masked)
            for (uint64_t i = 0; i < length; i++) payload[i] ^= mask[i & 3];
        unsigned opcode = head[0] & 0x0F;
        unsigned char out[10];
        size_t out_length = 2;
        out[0] = (unsigned char)((head[0] & 0x80) | (opcode == 0x9 ? 0xA : opcode));
        if (length < 126) {
            out[1] = (unsigned char)length;
        } else if (length <= 0xFFFF) {
            out[1] = 126;
            out[2] = (unsigned char)(length >> 8);
            out[3] = (unsigned char)length;
            out_length = 4;
        } else {
            out[1] = 127;
            for (int i = 0; i < 8; i++) out[2 + i] = (unsigned char)(length >> (56 - 8 * i));
            out_length = 10;
        }
        struct iovec parts[2] = {{out, out_length}, {payload, (size_t)length}};
        if (write_all(fd, parts, 2) != 0 || opcode == 0x8) break;
    }
    free(payload);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 0;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int yes = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 16) != 0) {
        perror("ws_echo");
        return 1;
    }
    socklen_t size = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &size);
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) continue;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
        serve(fd);
        close(fd);
    }
}
