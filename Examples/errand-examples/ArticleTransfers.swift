import Errand
import Foundation

/// Errand's article "Uploads, downloads and event streams", "A request as a curl command": no network is involved,
/// so it runs as written, on a client of the replica with the redaction the block's comment names.
@Sendable func articleCurlCommand(replica: URL) async throws {
    let apiKey = "k3y-from-the-keychain"
    struct Item: Encodable, Sendable { var name: String }
    let item = Item(name: "it's")
    var configuration = ClientConfiguration(baseURL: replica, headers: ["Authorization": "Bearer token"])
    configuration.redaction = Redaction(queryNames: ["api_key"], pathSegments: [apiKey])
    let client = APIClient(configuration: configuration)

    // configuration.redaction = Redaction(queryNames: ["api_key"], pathSegments: [apiKey]); Authorization is always secret
    let update = Request<Void>(method: .put, segments: ["keys", apiKey, "items"],
                               query: [QueryItem("api_key", apiKey), QueryItem("q", "a+b")], body: .json(item))
    print(try client.curlCommand(for: update))                        // secrets masked
    print(try client.curlCommand(for: update, showingSecrets: true))  // the real Authorization, API keys, …
}

/// The same article's "Multipart uploads" and "Progress, downloads to a file, Server-Sent Events": compiled here so
/// that they cannot go stale, and not run, since the replica has no upload, download or event-stream routes; the
/// suites run the same calls against the project's upload server, nginx and event-stream server on both transports
/// (MultipartUploadTests, DownloadTests, ServerSentEventTests, TransferProgressTests).
@Sendable func articleTransfers(client: APIClient, photoURL: URL, thumbnail: Data, video: URL, isoURL: URL,
                               destination: URL, requests: [Request<Data>]) async throws {
    do {
        let upload = Request<Void>(method: .post, path: "photos", body: .multipart([
            .field(name: "title", value: "Crème brûlée"),
            .file(name: "photo", url: photoURL, contentType: "image/jpeg"),            // streamed from disk
            .data(name: "thumb", data: thumbnail, filename: "thumb.png", contentType: "image/png"),
        ]))
        do {
            try await client.send(upload)
        } catch {
            print(error.userMessage)          // an ErrandError: every call of the client throws only that
        }
    }

    do {
        let upload = client.transfer(Request<Data>(method: .post, path: "upload", body: .file(video)))
        for await update in upload.progress { print(update.bytesSent, "of", update.totalBytesToSend ?? 0) }
        do {
            let uploaded = try await upload.value
            print(uploaded.status)
        } catch {
            print(error.userMessage)          // an ErrandError, without a cast
        }
    }

    await withTaskGroup(of: Result<Response<Data>, ErrandError>.self) { group in
        for request in requests {
            group.addTask { await client.transfer(request).result }
        }
        for await result in group {
            if case .failure(let error) = result { print(error.userMessage) }
        }
    }

    do {
        let download = client.transfer(downloading: Request(url: isoURL), to: destination, resume: true)
        for await update in download.progress { print(update.bytesReceived, "of", update.totalBytesToReceive ?? 0) }
        do {
            let file = try await download.value
            print(file.bytes, file.status, file.resumed ? "resumed" : "whole")
        } catch {
            print(error.userMessage)
        }
    }

    for try await event in client.events(Request(path: "live/scores")) {
        print(event.id ?? "-", event.event, event.data)
    }
}
