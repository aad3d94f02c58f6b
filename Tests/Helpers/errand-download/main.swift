// errand-download URL DESTINATION [--resume] [--transport curl|urlsession] [--rate R]
//
// Downloads URL to DESTINATION with APIClient.download and prints `received N` as the bytes arrive, then `done N`.
// `--rate R` sends `X-Limit-Rate: R`, which the test nginx's /slow-downloads/ sends at.
// The download tests run it as a child process and kill it midway, to show that a killed process leaves the
// destination untouched and a partial file that a later download resumes.
import Errand
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let url = URL(string: arguments[0]) else {
    FileHandle.standardError.write(
        Data("usage: errand-download URL DESTINATION [--resume] [--transport curl|urlsession]\n".utf8))
    exit(2)
}
let destination = URL(fileURLWithPath: arguments[1])
let resume = arguments.contains("--resume")
let transport: any Transport
#if canImport(CCurl)
transport = arguments.contains("urlsession") ? URLSessionTransport() : CurlTransport()
#else
transport = URLSessionTransport()
#endif

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var request = Request<Data>(url: url)
if let index = arguments.firstIndex(of: "--rate"), index + 1 < arguments.count {
    request.headers["X-Limit-Rate"] = arguments[index + 1]
}
let client = APIClient(configuration: ClientConfiguration(baseURL: url, transport: transport))
let progress = TransferProgressStream(interval: .milliseconds(10))
do {
    async let download = client.download(request, to: destination, resume: resume, progress: progress)
    for await update in progress { say("received \(update.bytesReceived)") }
    let finished = try await download
    say("done \(finished.bytes)")
} catch {
    say("failed \(error)")
    exit(1)
}
