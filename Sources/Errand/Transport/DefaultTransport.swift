extension Errand {
    /// The transport Linux uses by default. Becomes the libcurl transport once it exists.
    static func defaultLinuxTransport() -> any Transport {
        URLSessionTransport.shared
    }
}
