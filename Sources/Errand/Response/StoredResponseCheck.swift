/// What a response read back from a file (a HAR recording, a row of the disk cache) must hold to be handed up as if a
/// transport had received it: nothing a transport could not have handed up from the wire.
///
/// A transport reads a status of three digits, field names without a colon and field values without a line break
/// (libcurl hands a head over one line at a time), and a head of bounded size. A file can hold anything, so what it
/// holds is checked by the same rules before it reaches the client: a field value with CR LF in it would otherwise
/// become a header of its own in a request the cache revalidates, or in a caller's output.
enum StoredResponseCheck {
    /// The statuses a response can have.
    static let statuses = 100...599
    /// The most bytes of header fields accepted, as a transport accepts them in a head.
    static let headSizeLimit = 256 * 1024

    /// Why `status` and `headers` cannot be a received response's, as the end of a sentence; `nil` when they can.
    static func problem(status: Int, headers: some Sequence<HTTPHeaders.Field>) -> String? {
        guard statuses.contains(status) else { return "its status \(status) is not between 100 and 599" }
        var size = 0
        for field in headers {
            size += field.name.utf8.count + field.value.utf8.count + 4
            guard size <= headSizeLimit else { return "its header fields are larger than \(headSizeLimit) bytes" }
            guard FieldSyntax.isToken(field.name) else {
                return "the header name “\(printable(field.name))” is not a valid field name"
            }
            guard !FieldSyntax.breaksALine(field.value) else {
                return "the header field \(field.name) holds a line break or a NUL byte"
            }
        }
        return nil
    }

    /// A name as it can be shown: control characters escaped, at most 40 characters.
    private static func printable(_ text: String) -> String {
        String(
            text.unicodeScalars.prefix(40).map { $0.properties.generalCategory == .control ? "�" : Character($0) })
    }
}
