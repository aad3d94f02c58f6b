#if canImport(CCurl)
import CCurl
import Foundation

// libcurl's callbacks, called on the loop thread during `curl_multi_perform`; the user data is the transfer, which the
// loop keeps alive while its handle is in the multi handle.

let curlHeaderCallback: errand_curl_data_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let line = UnsafeRawBufferPointer(start: buffer, count: size * count)
    return transfer.receiveHeaderLine(line) ? line.count : 0
}

let curlWriteCallback: errand_curl_data_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

let curlReadCallback: errand_curl_read_callback = { buffer, size, count, context in
    guard let buffer, let context else { return errand_curl_readfunc_abort }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.sendBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

extension CurlTransfer {
    /// Takes one header line (status line, field, or the blank line ending the head); false aborts the transfer.
    ///
    /// Parsed at the byte level, and fields kept as bytes (``ResponseHead``): this runs on the loop thread for every
    /// header of every response, and Foundation's string trimming once measured as a quarter of the transport's CPU
    /// time.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        touch()
        // Trailers after the body are not part of the head.
        if headersComplete { return true }
        let bytes = line.assumingMemoryBound(to: UInt8.self)
        var end = bytes.count
        while end > 0, bytes[end - 1] == HeaderByte.lineFeed || bytes[end - 1] == HeaderByte.carriageReturn { end -= 1 }
        if end == 0 { return headEnded() }
        if end > 5, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
            bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/")
        {
            // A new head (an interim 1xx may come before the final one): "HTTP/1.1 200 OK", "HTTP/2 200".
            status = Self.statusCode(in: bytes[..<end])
            head.removeAll()
            return true
        }
        // A line without a colon (an obsolete folded continuation) carries no field of its own.
        guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")) else { return true }
        var valueStart = colon + 1
        var valueEnd = end
        while valueStart < valueEnd, HeaderByte.isSpace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, HeaderByte.isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        head.append(name: bytes[..<colon], value: bytes[valueStart..<valueEnd])
        return true
    }

    /// The three digits after the first space of a status line, or 0.
    private static func statusCode(in line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return 0 }
        var code = 0
        var index = space + 1
        while index < line.endIndex, index < space + 4, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) {
            code = code * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        return code
    }

    /// Decides what a head that came through the header callback means: interim, or the final one.
    private func headEnded() -> Bool {
        if (100..<200).contains(status) { return true }
        return finalHeadEnded(
            hasLocation: { head.hasLocation }, declaredLength: { head.contentLength },
            hasIdentityEncoding: { head.hasIdentityEncoding })
    }

    /// Decides, once, what the final head means when it was not read through the header callback, reading it from
    /// libcurl's header store: when the first body bytes arrive, or when the transfer ends without any. False aborts
    /// the transfer (``failure`` says why); true when there is nothing (more) to decide.
    func decideStoredHead() -> Bool {
        guard !readsHeadLive, !headersComplete else { return true }
        guard let easy else { return false }
        status = easy.info(long: CURLINFO_RESPONSE_CODE) ?? 0
        return finalHeadEnded(
            hasLocation: { easy.withHeader("Location") { _ in true } ?? false },
            declaredLength: {
                easy.info(offset: CURLINFO_CONTENT_LENGTH_DOWNLOAD_T).flatMap { $0 >= 0 ? Int(exactly: $0) : nil }
            },
            hasIdentityEncoding: {
                easy.withHeader("Content-Encoding", ResponseHead.isIdentityCoding) ?? true
            })
    }

    /// Decides what the final head means: a redirect to follow, a body too large, or the response. The facts are
    /// asked for only when the decision needs them.
    private func finalHeadEnded(
        hasLocation: () -> Bool, declaredLength: () -> Int?, hasIdentityEncoding: () -> Bool
    ) -> Bool {
        headersComplete = true
        let policy = request.redirects
        if CurlHop.redirectStatuses.contains(status), policy.maxRedirects > 0, hasLocation() {
            guard redirectCount < policy.maxRedirects else {
                fail(.transport(TransportFailure(
                    kind: .tooManyRedirects, url: request.url, underlying: "more than \(policy.maxRedirects) redirects")))
                return false
            }
            followsRedirect = true
            return true
        }
        if let declared = declaredBodySize(declaredLength, hasIdentityEncoding) {
            guard declared <= request.maxResponseBodySize else {
                fail(.bodyTooLarge(limit: request.maxResponseBodySize))
                return false
            }
            if channel == nil { body.reserve(declared) }
        }
        deliverHead()
        return true
    }

    /// The body size `Content-Length` announces, when it is the size of the decoded body.
    private func declaredBodySize(_ declaredLength: () -> Int?, _ hasIdentityEncoding: () -> Bool) -> Int? {
        guard hop.method != .head, status != 204, status != 304,
            let length = declaredLength()
        else { return nil }
        return hasIdentityEncoding() ? length : nil
    }

    /// Takes body bytes: discards a followed redirect's body, enforces the size limit, buffers or streams the rest.
    /// Returns the count taken, 0 to abort, or libcurl's pause value when the stream's reader is behind.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        touch()
        guard decideStoredHead() else { return 0 }
        if followsRedirect { return bytes.count }
        guard bytesReceived + bytes.count <= request.maxResponseBodySize else {
            fail(.bodyTooLarge(limit: request.maxResponseBodySize))
            return 0
        }
        if let channel {
            guard channel.offer(bytes) else {
                isPausedForReader = true
                return errand_curl_writefunc_pause
            }
        } else {
            guard body.append(bytes) else {
                fail(.transport(TransportFailure(
                    kind: .other, url: hop.url, underlying: "no memory for a body of \(bytesReceived + bytes.count) bytes")))
                return 0
            }
        }
        bytesReceived += bytes.count
        return bytes.count
    }

    /// Fills libcurl's buffer with the next request body bytes.
    func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let requestBody else { return 0 }
        guard let count = requestBody.read(into: buffer) else {
            fail(.invalidRequest("the request body could not be read."))
            return errand_curl_readfunc_abort
        }
        return count
    }
}

/// Bytes that delimit header lines and values.
private enum HeaderByte {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
#endif
