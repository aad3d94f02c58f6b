#if canImport(CCurl)
import Errand
import Foundation
import Testing
import TestSupport

/// CurlTransport presenting a client certificate to nginx with `ssl_verify_client on`.
@Suite("Client certificates", .enabled(if: ConnectivityServers.isUsable))
struct ClientCertificateTests {
    func client(_ certificate: ClientCertificate?) throws -> APIClient {
        var configuration = CurlTransport.Configuration(caBundle: TestServer.certificateAuthority)
        configuration.clientCertificate = certificate
        return APIClient(
            configuration: ClientConfiguration(
                baseURL: try ConnectivityServers.mutualTLSURL(), transport: CurlTransport(configuration: configuration))
        )
    }

    func file(_ name: String) throws -> ClientCertificate.Source { .file(try ConnectivityServers.tlsFile(name)) }

    func passphrase() throws -> String {
        try String(contentsOf: ConnectivityServers.tlsFile("client.pass"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
    }

    @Test("the right certificate from files is accepted, and the server sees who it names")
    func acceptedFromFiles() async throws {
        let client = try client(ClientCertificate(certificate: file("client.pem"), key: file("client.key")))
        let whoami = try await client.send(Request<String>(path: "whoami"))
        #expect(whoami.value.contains("CN=Errand Test Client"))
    }

    @Test("an encrypted key opens with its passphrase, from a file or from memory")
    func encryptedKey() async throws {
        let fromFile = ClientCertificate(
            certificate: try file("client.pem"), key: try file("client-encrypted.key"),
            passphrase: .file(try ConnectivityServers.tlsFile("client.pass")))
        let pem = try Data(contentsOf: ConnectivityServers.tlsFile("client.pem"))
        let key = try Data(contentsOf: ConnectivityServers.tlsFile("client-encrypted.key"))
        let fromMemory = ClientCertificate(
            certificate: .pem(pem), key: .pem(key), passphrase: ClientCertificate.Passphrase(try passphrase()))
        for certificate in [fromFile, fromMemory] {
            #expect(try await client(certificate).send(Request<String>(path: "whoami")).status == 200)
        }
    }

    @Test("without a certificate, or with one the CA did not sign, the server refuses")
    func refusedWithoutOrWithWrongCertificate() async throws {
        let other = ClientCertificate(certificate: try file("other.pem"), key: try file("other.key"))
        for (certificate, wording) in [(nil, "No required SSL certificate"), (other, "SSL certificate error")] {
            let error = await #expect(throws: ErrandError.self) {
                _ = try await client(certificate).send(Request<String>(path: "whoami"))
            }
            guard case .unacceptableStatus(let failure) = error else {
                Issue.record("expected nginx's 400, got \(String(describing: error))")
                continue
            }
            #expect(failure.status == 400)
            #expect(failure.bodyExcerpt.contains(wording))
        }
    }

    @Test("a wrong passphrase fails before any request is sent, worded for the user, the passphrase nowhere")
    func wrongPassphrase() async throws {
        let wrong = "wrong-\(UUID().uuidString)"
        let certificate = ClientCertificate(
            certificate: try file("client.pem"), key: try file("client-encrypted.key"),
            passphrase: ClientCertificate.Passphrase(wrong))
        let error = await #expect(throws: ErrandError.self) {
            _ = try await client(certificate).send(Request<String>(path: "whoami"))
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a TLS failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .tls)
        #expect(failure.underlying.contains("client certificate or its key cannot be used"))
        let everything = [String(describing: error), String(reflecting: error), "\(certificate)"]
        #expect(everything.allSatisfy { !$0.contains(wrong) })
        var dumped = ""
        dump(certificate, to: &dumped)
        #expect(!dumped.contains(wrong))
    }

    @Test("an unreadable passphrase file is a clear configuration error")
    func missingPassphraseFile() async throws {
        let certificate = ClientCertificate(
            certificate: try file("client.pem"), key: try file("client-encrypted.key"),
            passphrase: .file(URL(fileURLWithPath: "/nonexistent/client.pass")))
        let error = await #expect(throws: ErrandError.self) {
            _ = try await client(certificate).send(Request<String>(path: "whoami"))
        }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("/nonexistent/client.pass"))
    }
}
#endif
