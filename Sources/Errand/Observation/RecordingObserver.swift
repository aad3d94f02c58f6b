import Foundation

/// An observer that asks the exchange for more than observers are given: the exchange in clear, or the first bytes
/// of a streamed body.
///
/// The protocol is internal on purpose: only ``HARRecorder``, whose caller asked for it by name, can ever receive a
/// secret; an observer of an app or a library (a logger, an analytics hook) has no way to, however it is written.
protocol RecordingObserver: ExchangeObserver {
    /// Whether this observer is given each exchange with its secrets in clear instead of masked.
    var receivesSecrets: Bool { get }
    /// How many bytes of a streamed body (a download, an event stream) the observer wants in
    /// ``ExchangeEvent/streamedBodyPrefix``; 0 for none.
    var streamedBodyLimit: Int { get }
}

extension Redaction {
    /// A body's first bytes masked as ``redact(body:)`` masks a whole body. A cut through a character leaves bytes
    /// that are not UTF-8, which ``redact(body:)`` passes as they are, so the cut moves back to a whole character.
    func redact(prefix: Data) -> Data {
        redact(body: prefix.endingOnWholeCharacter)
    }
}

extension Array where Element == any ExchangeObserver {
    /// The most bytes of a streamed body any of these observers wants kept.
    var streamedBodyLimit: Int {
        reduce(0) { limit, observer in Swift.max(limit, (observer as? any RecordingObserver)?.streamedBodyLimit ?? 0) }
    }

    /// Gives every observer the exchange: `masked` to each, except one that receives secrets, which is given the
    /// event `revealing` builds (only when there is such an observer).
    func deliver(_ masked: ExchangeEvent, revealing: () -> ExchangeEvent) {
        var clear: ExchangeEvent?
        for observer in self {
            if let recording = observer as? any RecordingObserver, recording.receivesSecrets {
                if clear == nil { clear = revealing() }
                observer.exchangeDidFinish(clear ?? masked)
            } else {
                observer.exchangeDidFinish(masked)
            }
        }
    }
}
