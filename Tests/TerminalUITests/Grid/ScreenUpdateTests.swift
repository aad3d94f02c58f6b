import Testing

@testable import TerminalUI

@Suite("Screen updates")
struct ScreenUpdateTests {
    @Test("the first draw writes every cell; an unchanged grid writes nothing")
    func firstAndIdle() {
        var grid = Grid(size: Size(columns: 4, rows: 2))
        grid.write("ab", row: 0, column: 0)
        let first = ScreenUpdate.encode(from: nil, to: grid, colors: .trueColor)
        #expect(first.hasPrefix("\u{1B}[0m\u{1B}[1;1Hab  "))
        #expect(first.filter { $0 == " " || $0.isLetter }.count >= 8)
        #expect(ScreenUpdate.encode(from: grid, to: grid, colors: .trueColor).isEmpty)
    }

    @Test("only the changed cells are written, each run after one cursor move")
    func changedCells() {
        var old = Grid(size: Size(columns: 10, rows: 3))
        old.write("Loading", row: 1, column: 0)
        var new = old
        new.write("Loaded!", row: 1, column: 0)
        new.write("x", row: 2, column: 9)
        let update = ScreenUpdate.encode(from: old, to: new, colors: .trueColor)
        #expect(update == "\u{1B}[2;5Hed!\u{1B}[3;10Hx")
    }

    @Test("a size change redraws everything; colours follow the terminal's depth")
    func resizeAndColours() {
        var grid = Grid(size: Size(columns: 2, rows: 1))
        grid.set(
            Cell("▀", style: CellStyle(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255))), row: 0, column: 0)
        let smaller = Grid(size: Size(columns: 1, rows: 1))
        #expect(
            ScreenUpdate.encode(from: smaller, to: grid, colors: .trueColor).contains("38;2;255;0;0;48;2;0;0;255m▀"))
        #expect(ScreenUpdate.encode(from: nil, to: grid, colors: .palette256).contains("38;5;196;48;5;21m▀"))
        #expect(!ScreenUpdate.encode(from: nil, to: grid, colors: .none).contains("38;"))
    }

    @Test("a wide character is written once, its right half skipped")
    func wide() {
        let old = Grid(size: Size(columns: 4, rows: 1))
        var new = old
        new.write("寿", row: 0, column: 1)
        #expect(ScreenUpdate.encode(from: old, to: new, colors: .trueColor) == "\u{1B}[1;2H寿")
    }

    @Test("colour depth from the environment")
    func depth() {
        #expect(ColorDepth.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorDepth.detect(environment: ["TERM": "screen-256color"]) == .palette256)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm", "COLORTERM": "truecolor", "NO_COLOR": "1"]) == .none)
        #expect(ColorDepth.detect(environment: ["TERM": "dumb"]) == .none)
        #expect(ColorDepth.paletteIndex(128, 128, 128) == 244)
        #expect(ColorDepth.paletteIndex(0, 0, 0) == 16)
    }
}
