import Errand
import Foundation
import TestSupport
import Testing

/// A failed response keeps its body (bounded, redacted), decodes it, and hands it to the app's own error hook, on
/// both transports and for buffered and streamed exchanges alike, against the fault server's `/status` route.
@Suite("Error response bodies", .enabled(if: TestServer.fault.isUsable))
struct ErrorBodyTests {
    /// The fault server's `/status/{key}/{code}` body.
    struct StatusDocument: Decodable, Sendable, Equatable {
        var key: String
        var status: Int
        var count: Int
    }

    /// An app's own error, made from the API's error document.
    struct AppError: Error, Sendable, Equatable {
        var code: Int
        var key: String
    }

    func client(_ kind: TransportKind, _ change: (inout ClientConfiguration) -> Void = { _ in }) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try TestServer.fault.url(), transport: kind.make())
        configuration.timeout = .seconds(20)
        change(&configuration)
        return APIClient(configuration: configuration)
    }

    /// The status failure a request ends with, from `send` or from `stream`.
    func failure(_ client: APIClient, _ path: String, streamed: Bool) async throws -> StatusFailure {
        do throws(ErrandError) {
            if streamed {
                _ = try await client.stream(Request(path: path))
            } else {
                _ = try await client.send(Request<Data>(path: path))
            }
        } catch {
            guard case .unacceptableStatus(let failure) = error else {
                Issue.record("expected unacceptableStatus, got \(error)")
                throw error
            }
            return failure
        }
        Issue.record("a 422 succeeded")
        throw ErrandError.cancelled
    }

    @Test(
        "a 422's JSON body is kept and decodes into the API's error document", arguments: TransportKind.allCases,
        [false, true])
    func decodesTheBody(kind: TransportKind, streamed: Bool) async throws {
        let key = "error-body-\(UUID())"
        let failure = try await failure(try client(kind), "status/\(key)/422", streamed: streamed)
        #expect(failure.status == 422)
        let document = try failure.decodeBody(as: StatusDocument.self)
        #expect(document == StatusDocument(key: key, status: 422, count: 1))
        #expect(failure.appError == nil)
    }

    @Test(
        "the app's hook turns the failed response into its own error, kept beside ErrandError",
        arguments: TransportKind.allCases, [false, true])
    func appError(kind: TransportKind, streamed: Bool) async throws {
        let client = try client(kind) { configuration in
            configuration.errorResponse = { failure in
                (try? failure.decodeBody(as: StatusDocument.self)).map { AppError(code: $0.status, key: $0.key) }
            }
        }
        let key = "app-error-\(UUID())"
        let failure = try await failure(client, "status/\(key)/409", streamed: streamed)
        #expect(failure.appError(as: AppError.self) == AppError(code: 409, key: key))
    }

    @Test(
        "the kept body stops at maxErrorBodySize, and a cut document fails to decode as a decoding error",
        arguments: TransportKind.allCases, [false, true])
    func bounded(kind: TransportKind, streamed: Bool) async throws {
        let client = try client(kind) { $0.maxErrorBodySize = 10 }
        let failure = try await failure(client, "status/bounded-\(UUID())/500", streamed: streamed)
        #expect(failure.body.count == 10)
        #expect(throws: ErrandError.self) { try failure.decodeBody(as: StatusDocument.self) }
        do {
            _ = try failure.decodeBody(as: StatusDocument.self)
        } catch {
            guard case .decoding(let decoding) = error else { throw error }
            #expect(decoding.targetType.contains("StatusDocument"))
        }
    }

    @Test("a secret the redaction rules name is masked in the kept body", arguments: TransportKind.allCases)
    func redacted(kind: TransportKind) async throws {
        let secret = "SECRET\(UInt32.random(in: 1_000...UInt32.max))"
        let client = try client(kind) { $0.redaction = Redaction(pathSegments: [secret]) }
        let failure = try await failure(client, "status/\(secret)/403", streamed: false)
        let text = String(decoding: failure.body, as: UTF8.self)
        #expect(!text.contains(secret))
        #expect(try failure.decodeBody(as: StatusDocument.self).key == Redaction.mask)
    }
}
