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
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        touch()
        // Trailers after the body are not part of the head.
        if headersComplete { return true }
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 { return headEnded() }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            // A new head: an interim 1xx may come before the final one.
            let parts = text.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = HTTPHeaders()
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers.add(name: name, value: value)
        return true
    }

    /// Decides what the head means once complete: interim, a redirect to follow, too large, or the response.
    private func headEnded() -> Bool {
        if (100..<200).contains(status) { return true }
        headersComplete = true
        let policy = request.redirects
        if CurlHop.redirectStatuses.contains(status), policy.maxRedirects > 0, headers.contains("Location") {
            guard redirectCount < policy.maxRedirects else {
                fail(.transport(TransportFailure(
                    kind: .tooManyRedirects, url: request.url, underlying: "more than \(policy.maxRedirects) redirects")))
                return false
            }
            followsRedirect = true
            return true
        }
        if let declared = declaredBodySize {
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
    private var declaredBodySize: Int? {
        guard hop.method != .head, status != 204, status != 304,
            let length = headers["Content-Length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            length >= 0
        else { return nil }
        let encoding = headers["Content-Encoding"]?.lowercased() ?? "identity"
        return encoding == "identity" ? length : nil
    }

    /// Takes body bytes: discards a followed redirect's body, enforces the size limit, buffers or streams the rest.
    /// Returns the count taken, 0 to abort, or libcurl's pause value when the stream's reader is behind.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        touch()
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
