#if canImport(CCurl)
import CCurl
import Foundation

// libcurl's callbacks, called on the loop thread during `curl_multi_perform` (and `curl_easy_pause`); the user data is
// the transfer, which the loop keeps alive while its handle is in the multi handle.

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

let curlProgressCallback: errand_curl_xferinfo_callback = {
    context, downloadTotal, downloadNow, uploadTotal, uploadNow in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.reportProgress(
        received: Int64(downloadNow), toReceive: Int64(downloadTotal), sent: Int64(uploadNow),
        toSend: Int64(uploadTotal))
    return 0
}

extension CurlTransfer {
    /// Passes libcurl's counts to the progress stream, when the machine says they count (not while aborting).
    /// libcurl says 0 for a total it does not know.
    func reportProgress(received: Int64, toReceive: Int64, sent: Int64, toSend: Int64) {
        guard let progress, machine.countsProgress else { return }
        progress.report(
            TransferProgress(
                bytesSent: sent, totalBytesToSend: toSend > 0 ? toSend : nil,
                bytesReceived: received, totalBytesToReceive: toReceive > 0 ? toReceive : nil))
    }

    /// Reports the final counts, which libcurl's last callback may not have carried.
    func reportFinalProgress(_ easy: CurlEasyHandle, to progress: TransferProgressStream) {
        let received = easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T) ?? 0
        let sent = easy.info(offset: CURLINFO_SIZE_UPLOAD_T) ?? 0
        progress.report(TransferProgress(bytesSent: sent, bytesReceived: received))
    }

    /// Takes one header line (status line, field, or the blank line ending a head); false aborts the transfer.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        touch()
        // Trailers after the body, and anything after a failure, are not part of the head.
        guard case .running(.awaitingHead) = machine.state else { return true }
        switch head.take(line: line) {
        case .partOfHead, .interimHeadEnded:
            return true
        case .tooLarge:
            _ = machine.callbackFailed(
                .transport(
                    TransportFailure(
                        kind: .badResponse, url: request.url,
                        underlying: "the response head is larger than \(ResponseHead.sizeLimit) bytes")))
            return false
        case .finalHeadEnded:
            let action = machine.headReceived(declaredBodySize: declaredBodySize)
            if case .abort = action { return false }
            do {
                if head.hasContentEncoding {
                    decoder = try ContentDecoder.make(contentEncoding: head.values(of: "content-encoding"))
                }
            } catch {
                _ = machine.callbackFailed(error)
                return false
            }
            if case .deliverHead = action {
                deliverHead()
                owner.loop.noteHead(of: self)
            }
            if case .running(.buffering) = machine.state, let declared = declaredBodySize { body.reserve(declared) }
            return true
        }
    }

    /// The body size `Content-Length` announces, when it is the size of the decoded body.
    private var declaredBodySize: Int? {
        guard request.method != .head, head.status != 204, head.status != 304, head.hasIdentityEncoding else {
            return nil
        }
        return head.contentLength
    }

    /// Takes body bytes as sent: decodes, enforces the size limit, buffers or
    /// streams the rest. Returns the count taken, 0 to abort, or libcurl's pause value when the stream's reader is
    /// behind (libcurl then hands the same bytes over again on resume).
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        touch()
        let action = machine.bodyArrived()
        switch action {
        case .abort:
            return 0
        case .buffer, .stream:
            break
        }
        guard let decoder else { return take(bytes, streaming: action == .stream, canOfferAgain: true) }
        // Decoding consumes the input, so a stream whose reader is behind pauses before it decodes anything.
        if action == .stream, channel?.pauseIfBehind() == true {
            guard case .pause = machine.streamRefused() else { return 0 }
            return errand_curl_writefunc_pause
        }
        switch decoder.decode(bytes, { take($0, streaming: action == .stream, canOfferAgain: false) == $0.count }) {
        case .decoded:
            return bytes.count
        case .stopped:
            return 0
        case .corrupt(let message):
            _ = machine.callbackFailed(
                .transport(TransportFailure(kind: .badResponse, url: request.url, underlying: message)))
            return 0
        }
    }

    /// Takes decoded body bytes into the buffer or the stream, within the size limit; returns what
    /// ``receiveBody(_:)`` returns for them.
    private func take(_ bytes: UnsafeRawBufferPointer, streaming: Bool, canOfferAgain: Bool) -> Int {
        guard bytesReceived + bytes.count <= request.maxResponseBodySize else {
            _ = machine.callbackFailed(.bodyTooLarge(limit: request.maxResponseBodySize))
            return 0
        }
        if streaming {
            guard let channel, channel.offer(bytes, evenIfBehind: !canOfferAgain) else {
                guard case .pause = machine.streamRefused() else { return 0 }
                return errand_curl_writefunc_pause
            }
        } else if !body.append(bytes) {
            _ = machine.callbackFailed(
                .transport(
                    TransportFailure(
                        kind: .other, url: request.url,
                        underlying: "no memory for a body of \(bytesReceived + bytes.count) bytes")))
            return 0
        }
        bytesReceived += bytes.count
        return bytes.count
    }

    /// The failure of a transfer libcurl reports as complete although its coded body stopped before its stream ended.
    var unfinishedBodyFailure: ErrandError? {
        guard let decoder, !decoder.hasEnded, case .running(let response) = machine.state else { return nil }
        switch response {
        case .buffering, .streaming:
            return .transport(
                TransportFailure(
                    kind: .connectionLost, url: request.url,
                    underlying: "the compressed body ended before its stream did"))
        case .awaitingHead, .aborting:
            return nil
        }
    }

    /// Fills libcurl's buffer with the next request body bytes.
    func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let requestBody else { return 0 }
        switch requestBody.read(into: buffer) {
        case .bytes(let count):
            // Sending counts as activity: a slow sequence's upload is not idle.
            if count > 0 { touch() }
            return count
        case .pause:
            return errand_curl_readfunc_pause
        case .failed:
            _ = machine.callbackFailed(requestBody.failure ?? .invalidRequest("the request body could not be read."))
            return errand_curl_readfunc_abort
        }
    }
}
#endif
