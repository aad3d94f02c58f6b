import Foundation
import Observation

/// Runs a ``BrowserApp`` full-screen: enters the terminal's full-screen mode, draws the app's frames (only the cells
/// that changed), turns keys into actions through ``Navigation``, redraws when a view model the frame read changes
/// (Observation), when a picture arrives, on resize and on the spinner's tick, and restores the terminal however it
/// ends.
@MainActor
public final class BrowserLoop<App: BrowserApp> {
    /// What wakes the loop.
    enum Wake: Sendable {
        case terminal(TerminalEvent)
        case redraw
        case tick
    }

    private let app: App
    private let colors: ColorDepth
    private let pictures: PictureMode
    private var navigation: Navigation<App.Page>
    private var screen: TerminalScreen
    private var size = TerminalScreen.currentSize()
    private var tick = 0
    private let wakes: AsyncStream<Wake>
    private let wake: AsyncStream<Wake>.Continuation

    /// A loop drawing with the terminal's colours and its way of showing pictures, for the app `makeApp` makes; it
    /// is handed the function that asks for a redraw (when a picture arrived).
    public init(
        colors: ColorDepth, pictures: PictureMode = .blocks,
        makeApp: (_ redraw: @escaping @Sendable () -> Void) -> App
    ) {
        let (wakes, wake) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .unbounded)
        self.wakes = wakes
        self.wake = wake
        app = makeApp { wake.yield(.redraw) }
        self.colors = colors
        self.pictures = pictures
        navigation = Navigation(root: app.rootPage)
        screen = TerminalScreen(colors: colors, pictures: pictures)
    }

    /// Runs until the user quits; returns the exit status (0 after `q`). SIGTERM and SIGHUP restore the terminal and
    /// exit the process with 143 and 129; SIGINT's handler exits with 130, and the exit restores the terminal.
    public func run() async -> Int32 {
        guard TerminalMode.enter() else { return 1 }
        defer { TerminalMode.restore() }
        let events = TerminalEvents()
        let wake = wake
        let forward = Task.detached {
            for await event in events.stream { wake.yield(.terminal(event)) }
        }
        let ticker = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(120))
                wake.yield(.tick)
            }
        }
        defer {
            forward.cancel()
            ticker.cancel()
        }
        app.start()
        guard draw() else { return 1 }
        for await event in wakes {
            switch event {
            case .tick: tick += 1
            case .redraw: break
            case .terminal(.resized):
                size = TerminalScreen.currentSize()
                screen.invalidate()
            case .terminal(.terminate(let status)):
                TerminalMode.restore()
                exit(status)
            case .terminal(.inputClosed):
                return 1
            case .terminal(.keys(let keys)):
                for key in keys where !handle(key) { return 0 }
            }
            guard draw() else { return 1 }
        }
        return 0
    }

    /// Carries out a key; `false` when the app must quit.
    private func handle(_ key: Key) -> Bool {
        let page = navigation.top.page
        let rows = app.rows(of: page)
        if let rows { navigation.clamp(rows: rows) }
        let body = app.frame(for: navigation, colors: colors, tick: tick).body
        let context = Navigation<App.Page>.Context(
            rows: rows, visible: FrameRenderer.visibleRows(of: body, size: size),
            searchesAsYouType: app.searchesAsYouType)
        switch navigation.handle(key, context: context) {
        case .none, .back: break
        case .quit: return false
        case .queryChanged(let text), .submit(let text):
            navigation.show(app.search(text))
        case .open(let page, let row):
            if let next = app.open(page, row: row) { navigation.push(next) }
        case .retry(let page):
            app.retry(page)
        }
        return true
    }

    /// Draws the frame of the current state; `false` when the terminal cannot be written to any more.
    private func draw() -> Bool {
        var frame: Frame?
        let wake = wake
        withObservationTracking {
            frame = app.frame(for: navigation, colors: colors, tick: tick)
        } onChange: {
            wake.yield(.redraw)
        }
        guard var frame else { return true }
        frame.pictures = pictures
        if case .text(let text) = frame.body {
            navigation.limitScroll(
                to: FrameRenderer.maximumScroll(of: text, size: size, colors: colors, pictures: pictures))
            var limited = text
            limited.scroll = navigation.top.scroll
            frame.body = .text(limited)
        }
        return screen.draw(FrameRenderer.render(frame, size: size))
    }
}
