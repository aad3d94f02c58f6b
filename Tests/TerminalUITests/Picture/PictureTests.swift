import Foundation
import Testing

@testable import TerminalUI

@Suite("Pictures")
struct PictureTests {
    /// A 2×2 picture: red, green / blue, white.
    static let quad = Picture(width: 2, height: 2, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])!

    @Test("the box filter averages the area under each target pixel")
    func scaling() {
        let one = Self.quad.scaled(toWidth: 1, height: 1)
        #expect(one.color(x: 0, y: 0) == (127, 127, 127))
        let wide = Self.quad.scaled(toWidth: 4, height: 2)
        #expect(wide.color(x: 1, y: 0) == (255, 0, 0))
        #expect(wide.color(x: 2, y: 1) == (255, 255, 255))
    }

    @Test("a picture fits a box of cells keeping its proportions, two pixels a cell")
    func fitting() {
        let landscape = Picture(width: 160, height: 120, pixels: [UInt8](repeating: 0, count: 160 * 120 * 3))!
        #expect(landscape.cellSize(fitting: Size(columns: 40, rows: 40)) == Size(columns: 40, rows: 15))
        #expect(landscape.cellSize(fitting: Size(columns: 40, rows: 6)) == Size(columns: 16, rows: 6))
    }

    @Test("half blocks: the upper pixel is the foreground, the lower the background")
    func halfBlocks() {
        var grid = Grid(size: Size(columns: 2, rows: 1))
        let used = PictureCells.draw(Self.quad, in: &grid, row: 0, column: 0, box: Size(columns: 2, rows: 1))
        #expect(used == Size(columns: 2, rows: 1))
        #expect(grid[0, 0] == Cell("▀", style: CellStyle(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255))))
        #expect(grid[0, 1].style.background == .rgb(255, 255, 255))
    }

    @Test(
        "PNG through libpng: RGB, and grey with transparency composed onto white",
        .enabled(if: PictureDecoder.isAvailable, "built without the picture decoders"))
    func png() throws {
        let rgb = PNGWriter.png(
            width: 3, height: 2, colorType: 2,
            rows: [[255, 0, 0, 0, 255, 0, 0, 0, 255], [9, 9, 9, 50, 60, 70, 1, 2, 3]])
        let picture = try #require(PictureDecoder.decode(rgb))
        #expect(picture.width == 3 && picture.height == 2)
        #expect(picture.color(x: 2, y: 0) == (0, 0, 255))
        #expect(picture.color(x: 1, y: 1) == (50, 60, 70))
        let grey = PNGWriter.png(width: 1, height: 1, colorType: 4, rows: [[0, 0]])
        #expect(
            try #require(PictureDecoder.decode(grey)).color(x: 0, y: 0) == (255, 255, 255), "transparent black on white"
        )
    }

    @Test("damaged or foreign data decodes to nil, never a crash")
    func damaged() throws {
        var png = PNGWriter.png(
            width: 4, height: 4, colorType: 2, rows: Array(repeating: Array(repeating: 7, count: 12), count: 4))
        png.removeLast(30)
        #expect(PictureDecoder.decode(png) == nil)
        #expect(PictureDecoder.decode(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3])) == nil)
        #expect(PictureDecoder.decode(Data("<html>not a picture</html>".utf8)) == nil)
        #expect(PictureDecoder.decode(Data()) == nil)
    }
}
