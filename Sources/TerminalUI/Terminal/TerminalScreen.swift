#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's screen: its size, and the grid it shows, updated by writing only what changed.
public struct TerminalScreen {
    private var shown: Grid?
    /// How many colours the terminal shows.
    public let colors: ColorDepth
    /// How pictures are drawn.
    public let pictures: PictureMode

    /// A screen whose content is not known yet (the first draw writes every cell).
    public init(colors: ColorDepth, pictures: PictureMode = .blocks) {
        self.colors = colors
        self.pictures = pictures
    }

    /// The window's size, from the terminal; 80×24 when it does not say.
    public static func currentSize() -> Size {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return Size(columns: 80, rows: 24)
        }
        return Size(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Forgets what the terminal shows, so the next draw writes every cell (after a resize).
    public mutating func invalidate() {
        shown = nil
    }

    /// Draws a grid; `false` when the terminal can no longer be written to (the output pipe closed).
    public mutating func draw(_ grid: Grid) -> Bool {
        let images = PlacementUpdate.encode(from: shown, to: grid, mode: pictures)
        let update = images.before + ScreenUpdate.encode(from: shown, to: grid, colors: colors) + images.after
        shown = grid
        guard !update.isEmpty else { return true }
        var bytes = Array(update.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        bytes.removeAll()
        return true
    }
}
