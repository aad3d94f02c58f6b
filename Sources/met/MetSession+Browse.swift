import CommandLine
import MuseumBrowser
import TerminalUI

extension MetSession {
    /// `met browse`: the museum app full-screen, on the session's client and its picture pipeline.
    func browse(environment: [String: String]) async throws {
        guard TerminalMode.isInteractive else {
            throw Failure(.usage, ToolText.sentence("met.browseNeedsTerminal"))
        }
        let limit = try invocation.integer("limit", in: 1...500) ?? 20
        let rate = try invocation.positiveDecimal("rate", in: MetSearchOptions.rates)
        let images = ImageLoader(setup: setup, console: console)
        let client = client
        let loop = BrowserLoop(
            colors: ColorDepth.detect(environment: environment), pictures: PictureMode.detect(environment: environment)
        ) { redraw in
            MuseumBrowser(
                client: client, limit: limit, rate: rate, pictureData: { url in try await images.data(for: url) },
                redraw: redraw)
        }
        let status = await loop.run()
        if status != 0 { throw Failure(.failure, ToolText.sentence("failure.terminalGone")) }
    }
}
