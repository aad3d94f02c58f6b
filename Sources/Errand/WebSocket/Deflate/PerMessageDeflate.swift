import Foundation

/// The permessage-deflate negotiation's client side (RFC 7692 §5, §7.1): the offer's header value, and the strict
/// reading of the server's answer into the parameters both sides then use.
enum PerMessageDeflate {
    static let name = "permessage-deflate"

    /// What both sides agreed on.
    struct Agreement: Sendable, Hashable {
        /// The server compresses every message on its own: the inflater starts each with an empty window.
        var serverNoContextTakeover = false
        /// The client must compress every message on its own.
        var clientNoContextTakeover = false
        /// The window the server compresses with at most (informational: the inflater reads any window).
        var serverMaxWindowBits = 15
        /// The window the client must compress with at most; below 9 (zlib's least) its messages go uncompressed.
        var clientMaxWindowBits = 15
    }

    /// The `Sec-WebSocket-Extensions` value that offers `compression`.
    static func offer(_ compression: WebSocketCompression) -> String {
        var parts = [name]
        if compression.serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if compression.clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if let bits = compression.serverMaxWindowBits { parts.append("server_max_window_bits=\(bits)") }
        // Always offered: without it a server may not bound the client's window (§7.1.2.2), and one that needs a
        // bounded window (to cap its own memory) then declines compression altogether.
        if let bits = compression.clientMaxWindowBits {
            parts.append("client_max_window_bits=\(bits)")
        } else {
            parts.append("client_max_window_bits")
        }
        return parts.joined(separator: "; ")
    }

    /// Reads the server's `Sec-WebSocket-Extensions` answer to `offered` (`nil` when nothing was offered); returns
    /// `nil` when the server accepted no extension. Anything the offer did not allow throws, saying what.
    static func agreement(answer: String?, offered: WebSocketCompression?) throws(WebSocketHandshakeFailure)
        -> Agreement?
    {
        let elements = try ExtensionHeader.parse(answer ?? "")
        guard let element = elements.first else { return nil }
        guard let offered else { throw .extensionRefused("the server accepted \(element.name), which was not offered") }
        guard elements.count == 1 else {
            throw .extensionRefused("the server accepted more than the one extension offered")
        }
        guard element.name == name else {
            throw .extensionRefused("the server accepted \(element.name), which was not offered")
        }
        var agreement = Agreement()
        var seen = Set<String>()
        for (key, value) in element.parameters {
            guard seen.insert(key).inserted else { throw .extensionRefused("\(key) is given twice") }
            switch key {
            case "server_no_context_takeover":
                guard value == nil else { throw .extensionRefused("server_no_context_takeover takes no value") }
                agreement.serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard value == nil else { throw .extensionRefused("client_no_context_takeover takes no value") }
                agreement.clientNoContextTakeover = true
            case "server_max_window_bits":
                let bits = try windowBits(key, value)
                if let asked = offered.serverMaxWindowBits, bits > asked {
                    throw .extensionRefused("server_max_window_bits=\(bits) is more than the \(asked) asked for")
                }
                agreement.serverMaxWindowBits = bits
            case "client_max_window_bits":
                // The offer always carries it, with or without a value; the answer must name a window (§7.1.2.2).
                let bits = try windowBits(key, value)
                let allowed = offered.clientMaxWindowBits ?? 15
                guard bits <= allowed else {
                    throw .extensionRefused("client_max_window_bits=\(bits) is more than the \(allowed) offered")
                }
                // 8 is honoured by sending uncompressed messages: zlib's raw deflate has no 256-byte window.
                agreement.clientMaxWindowBits = bits
            default:
                throw .extensionRefused("the parameter \(key) is not permessage-deflate's")
            }
        }
        if offered.serverMaxWindowBits != nil, !seen.contains("server_max_window_bits") {
            throw .extensionRefused("server_max_window_bits was asked for and not answered")
        }
        if !seen.contains("client_max_window_bits") {
            agreement.clientMaxWindowBits = offered.clientMaxWindowBits ?? 15
        }
        if offered.clientNoContextTakeover { agreement.clientNoContextTakeover = true }
        return agreement
    }

    /// A window size: 8 to 15, digits only, no leading zero (§7.1.2.1).
    private static func windowBits(_ key: String, _ value: String?) throws(WebSocketHandshakeFailure) -> Int {
        guard let value, let first = value.first, first != "0", value.allSatisfy(\.isASCIIDigit),
            value.count <= 2, let bits = Int(value), (8...15).contains(bits)
        else { throw .extensionRefused("\(key)=\(value ?? "") is not a window size from 8 to 15") }
        return bits
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
