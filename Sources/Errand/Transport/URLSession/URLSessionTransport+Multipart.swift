import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``URLSessionTransport`` hands a multipart body to URLSession.
enum MultipartDelivery: Sendable {
    /// As an `InputStream` read while the body is sent: no copy, bounded memory. FoundationNetworking sends it
    /// chunked, without `Content-Length`. The default on Linux.
    case stream
    /// Written to a temporary file first, then uploaded from it with its `Content-Length` (`uploadTask(with:fromFile:)`),
    /// the file removed afterwards: bounded memory, one extra write of the body to disk. The default on Apple platforms,
    /// where a subclassed `InputStream` as a body stream depends on CFNetwork internals (as Alamofire does for large
    /// multipart bodies, Errand spools instead).
    case spooledFile

    /// ``stream`` where FoundationNetworking is, ``spooledFile`` elsewhere.
    static var platformDefault: MultipartDelivery {
        #if canImport(FoundationNetworking)
        return .stream
        #else
        return .spooledFile
        #endif
    }
}
