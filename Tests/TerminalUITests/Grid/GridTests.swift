import Testing

@testable import TerminalUI

@Suite("Grid")
struct GridTests {
    @Test("text is clipped at the limit and at the row's end")
    func clipping() {
        var grid = Grid(size: Size(columns: 10, rows: 2))
        #expect(grid.write("Hello, world", row: 0, column: 2) == 10)
        #expect(grid.write("abcdef", row: 1, column: 0, limit: 3) == 3)
        #expect(grid.text == "  Hello, w\nabc")
    }

    @Test("a wide character takes two cells and is never cut in half")
    func wideCharacters() {
        var grid = Grid(size: Size(columns: 5, rows: 1))
        grid.write("a寿司", row: 0, column: 0)
        #expect(grid[0, 1].character == "寿")
        #expect(grid[0, 2].character.isEmpty)
        #expect(grid.text == "a寿司")
        var edge = Grid(size: Size(columns: 4, rows: 1))
        edge.write("ab寿司", row: 0, column: 0)
        #expect(edge.text == "ab寿", "the second wide character does not fit in the last column")
        edge.write("x", row: 0, column: 3)
        #expect(edge.text == "ab x", "writing over the right half blanks the left half")
    }

    @Test("server text cannot put a control character or an escape sequence into a cell")
    func sanitised() {
        var grid = Grid(size: Size(columns: 40, rows: 1))
        grid.write("Tea\u{1B}]52;c;aGk=\u{07}\u{1B}[2J\r\nCake\u{202E}txt\tend", row: 0, column: 0)
        let characters = grid.cells.map(\.character).joined()
        #expect(!characters.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" })
        #expect(grid.text.hasPrefix("Tea]52;c;aGk=[2J Caketxt end"))
    }

    @Test("pasting rows of a taller grid")
    func paste() {
        var page = Grid(size: Size(columns: 4, rows: 5))
        for row in 0..<5 { page.write("r\(row)", row: row, column: 0) }
        var screen = Grid(size: Size(columns: 4, rows: 3))
        screen.paste(page, rows: 2..<5, at: 1)
        #expect(screen.text == "\nr2\nr3")
    }
}
