#if canImport(CCurl)
import CCurl
import Foundation

/// How much output a stage produces per step: libcurl hands over at most 16 KB at a time, and 64 KB of output is
/// four times that, so most pieces take one step while a bomb's output still arrives in bounded pieces.
private let stepSize = 64 * 1024

/// gzip and deflate through zlib.
final class ZlibStage: ContentDecoder.Stage {
    private struct Functions {
        let version: errand_zlib_version_function
        let initialize: errand_inflate_init_function
        let inflate: errand_inflate_function
        let end: errand_inflate_end_function
    }

    private static let functions: Functions? = {
        guard let version = errand_symbol("zlibVersion"), let initialize = errand_symbol("inflateInit2_"),
            let inflate = errand_symbol("inflate"), let end = errand_symbol("inflateEnd")
        else { return nil }
        return Functions(
            version: unsafeBitCast(version, to: errand_zlib_version_function.self),
            initialize: unsafeBitCast(initialize, to: errand_inflate_init_function.self),
            inflate: unsafeBitCast(inflate, to: errand_inflate_function.self),
            end: unsafeBitCast(end, to: errand_inflate_end_function.self))
    }()

    static var isAvailable: Bool { functions != nil }

    private let functions: Functions
    private let stream = UnsafeMutablePointer<errand_z_stream>.allocate(capacity: 1)
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: stepSize, alignment: 16)
    private let gzip: Bool
    /// A `deflate` body may be a zlib stream (as HTTP says) or a raw deflate stream (as some servers send); a
    /// zlib stream is tried first, and raw deflate when the first bytes are not one.
    private var isRaw = false
    /// The bytes a `deflate` body began with, kept until zlib has read its two-byte header: when the header turns
    /// out not to be one, the body is raw deflate and is decoded again from its first byte, however the first bytes
    /// were cut into pieces. `nil` once decided, and for gzip.
    private var headerBytes: [UInt8]?
    private(set) var hasEnded = false

    init?(gzip: Bool) {
        guard let functions = Self.functions else { return nil }
        self.functions = functions
        self.gzip = gzip
        headerBytes = gzip ? nil : []
        guard initialize() else {
            stream.deallocate()
            scratch.deallocate()
            return nil
        }
    }

    deinit {
        _ = functions.end(stream)
        stream.deallocate()
        scratch.deallocate()
    }

    /// 15 is zlib's largest window; +16 reads the gzip wrapper, a negative size raw deflate.
    private func initialize() -> Bool {
        stream.initialize(to: errand_z_stream())
        let windowBits: Int32 = gzip ? 15 + 16 : isRaw ? -15 : 15
        return functions.initialize(stream, windowBits, functions.version(), Int32(MemoryLayout<errand_z_stream>.size))
            == errand_z_ok
    }

    func decode(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Bool) -> ContentDecoder.Outcome {
        guard let base = input.baseAddress, !input.isEmpty, !hasEnded else { return .decoded }
        let outcome = inflate(base, count: input.count, output)
        guard let earlier = headerBytes else { return outcome }
        // Raw deflate only when zlib refused the header itself (it fails having read at most those two bytes); an
        // error further in is a corrupt zlib stream, however the bytes were cut into pieces.
        if case .corrupt = outcome, !isRaw, stream.pointee.total_in <= 2 {
            _ = functions.end(stream)
            isRaw = true
            headerBytes = nil
            guard initialize() else { return .corrupt("zlib could not start raw deflate") }
            return (earlier + input).withUnsafeBytes { decode($0, output) }
        }
        if stream.pointee.total_in >= 2 { headerBytes = nil } else { headerBytes = earlier + input }
        return outcome
    }

    private func inflate(
        _ base: UnsafeRawPointer, count: Int, _ output: (UnsafeRawBufferPointer) -> Bool
    ) -> ContentDecoder.Outcome {
        stream.pointee.next_in = base.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = UInt32(count)
        while true {
            stream.pointee.next_out = scratch.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = UInt32(stepSize)
            let code = functions.inflate(stream, errand_z_no_flush)
            let produced = stepSize - Int(stream.pointee.avail_out)
            if produced > 0, !output(UnsafeRawBufferPointer(start: scratch, count: produced)) { return .stopped }
            switch code {
            case errand_z_stream_end:
                // Bytes after the end of the stream are ignored, as libcurl ignores them.
                hasEnded = true
                return .decoded
            case errand_z_ok, errand_z_buf_error:
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return .decoded }
                if code == errand_z_buf_error { return .decoded }
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "code \(code)"
                return .corrupt("the \(gzip ? "gzip" : "deflate") body is corrupt (\(message))")
            }
        }
    }
}

/// br through the brotli decoder libcurl links.
final class BrotliStage: ContentDecoder.Stage {
    private struct Functions {
        let create: errand_brotli_create_function
        let decompress: errand_brotli_decompress_function
        let destroy: errand_brotli_destroy_function
    }

    private static let functions: Functions? = {
        guard let create = errand_symbol("BrotliDecoderCreateInstance"),
            let decompress = errand_symbol("BrotliDecoderDecompressStream"),
            let destroy = errand_symbol("BrotliDecoderDestroyInstance")
        else { return nil }
        return Functions(
            create: unsafeBitCast(create, to: errand_brotli_create_function.self),
            decompress: unsafeBitCast(decompress, to: errand_brotli_decompress_function.self),
            destroy: unsafeBitCast(destroy, to: errand_brotli_destroy_function.self))
    }()

    static var isAvailable: Bool { functions != nil }

    private let functions: Functions
    private let state: UnsafeMutableRawPointer
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: stepSize, alignment: 16)
    private(set) var hasEnded = false

    init?() {
        guard let functions = Self.functions, let state = functions.create(nil, nil, nil) else { return nil }
        self.functions = functions
        self.state = state
    }

    deinit {
        functions.destroy(state)
        scratch.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Bool) -> ContentDecoder.Outcome {
        guard let base = input.baseAddress, !input.isEmpty, !hasEnded else { return .decoded }
        var availableIn = input.count
        var nextIn: UnsafePointer<UInt8>? = UnsafePointer(base.assumingMemoryBound(to: UInt8.self))
        while true {
            var availableOut = stepSize
            var nextOut: UnsafeMutablePointer<UInt8>? = scratch.assumingMemoryBound(to: UInt8.self)
            let code = functions.decompress(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
            let produced = stepSize - availableOut
            if produced > 0, !output(UnsafeRawBufferPointer(start: scratch, count: produced)) { return .stopped }
            switch code {
            case errand_brotli_success:
                hasEnded = true
                return .decoded
            case errand_brotli_needs_more_input:
                return .decoded
            case errand_brotli_needs_more_output:
                continue
            default:
                return .corrupt("the br body is corrupt")
            }
        }
    }
}
#endif
