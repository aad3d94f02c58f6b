import CommandLine
import RecipesBrowser
import TerminalUI

extension MealDBSession {
    /// `mealdb browse`: the recipe app full-screen, on the session's client and its picture pipeline.
    func browse() async throws {
        guard TerminalMode.isInteractive else {
            throw Failure(.usage, ToolText.sentence("mealdb.browseNeedsTerminal"))
        }
        let images = ImageLoader(setup: setup, console: console)
        let client = client
        let loop = BrowserLoop(
            colors: ColorDepth.detect(environment: context.environment),
            pictures: PictureMode.detect(environment: context.environment)
        ) { redraw in
            RecipesBrowser(client: client, pictureData: { url in try await images.data(for: url) }, redraw: redraw)
        }
        let status = await loop.run()
        if status != 0 { throw Failure(.failure, ToolText.sentence("failure.terminalGone")) }
    }
}
