import Foundation

/// A WebSocket close status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as sent on the wire.
    public let rawValue: UInt16

    /// Wraps a code; any value, valid or not (see ``isValidOnTheWire``).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = Self(rawValue: 1000)
    /// 1001: the endpoint is going away (a server shutting down, a client whose reader stopped).
    public static let goingAway = Self(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = Self(rawValue: 1002)
    /// 1003: the peer sent a kind of data this endpoint does not accept.
    public static let unsupportedData = Self(rawValue: 1003)
    /// 1005: no code was in the peer's close frame. Never sent.
    public static let noStatusReceived = Self(rawValue: 1005)
    /// 1006: the connection ended without a close frame. Never sent.
    public static let abnormalClosure = Self(rawValue: 1006)
    /// 1007: a text message was not valid UTF-8.
    public static let invalidPayload = Self(rawValue: 1007)
    /// 1008: a message broke the endpoint's policy.
    public static let policyViolation = Self(rawValue: 1008)
    /// 1009: a message was larger than the endpoint accepts.
    public static let messageTooBig = Self(rawValue: 1009)
    /// 1010: the server did not negotiate an extension the client requires.
    public static let mandatoryExtension = Self(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = Self(rawValue: 1011)

    /// Whether a close frame may carry this code: 1000–1003, 1007–1014 and the application ranges 3000–4999. The
    /// others are reserved (1004, 1016–2999) or only stand for a missing code (1005, 1006, 1015).
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// The code as a number.
    public var description: String { String(rawValue) }
}
