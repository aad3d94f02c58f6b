#if canImport(CCurl)
import Errand
import Foundation
import Testing
import TestSupport

/// CurlTransport presenting a PKCS#12 client certificate, the form URLSession on Apple platforms takes too.
@Suite("Curl: PKCS#12 client certificate", .enabled(if: ConnectivityServers.isUsable))
struct CurlPKCS12Tests {
    func send(_ certificate: ClientCertificate) async throws -> String {
        var configuration = CurlTransport.Configuration(caBundle: TestServer.certificateAuthority)
        configuration.clientCertificate = certificate
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try ConnectivityServers.mutualTLSURL(), transport: CurlTransport(configuration: configuration)
            ))
        return try await client.send(Request<String>(path: "whoami")).value
    }

    func archive() throws -> Data { try Data(contentsOf: ConnectivityServers.tlsFile("client.p12")) }

    @Test("the archive with its passphrase is accepted, and the server sees who it names")
    func accepted() async throws {
        let passphrase = ClientCertificate.Passphrase.file(try ConnectivityServers.tlsFile("client.pass"))
        let whoami = try await send(ClientCertificate(pkcs12: archive(), passphrase: passphrase))
        #expect(whoami.contains("CN=Errand Test Client"))
    }

    @Test("a wrong passphrase fails before any request, and the passphrase is in no description")
    func wrongPassphrase() async throws {
        let certificate = ClientCertificate(
            pkcs12: try archive(), passphrase: ClientCertificate.Passphrase("wrong-9f2"))
        let error = await #expect(throws: ErrandError.self) { _ = try await send(certificate) }
        #expect(error.map { String(reflecting: $0) }?.contains("wrong-9f2") == false)
        #expect(!String(describing: certificate).contains("wrong-9f2"))
    }
}
#endif
