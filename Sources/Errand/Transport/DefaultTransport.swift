extension Errand {
    /// The transport Linux uses by default: libcurl, shared by every client that names no transport.
    static func defaultLinuxTransport() -> any Transport {
        CurlTransport.shared
    }
}
