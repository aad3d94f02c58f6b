import Foundation
import Testing

@testable import TerminalUI

@Suite("Terminal graphics protocols")
struct GraphicsProtocolTests {
    /// A picture of `width` × `height` whose bytes count up, so that any byte out of place shows.
    static func counting(width: Int, height: Int) -> Picture {
        Picture(
            width: width, height: height,
            pixels: (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 256) })!
    }

    static let placement = PicturePlacement(
        picture: counting(width: 10, height: 8), row: 4, column: 2, size: Size(columns: 5, rows: 2))

    /// The kitty escapes of an output: their control keys and payloads.
    static func kittyEscapes(_ output: String) -> [(control: String, payload: String)] {
        output.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }.map { escape in
            let body = escape.components(separatedBy: "\u{1B}_G").last ?? ""
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    @Test(
        "which protocol the environment names",
        arguments: [
            ([String: String](), PictureMode.blocks),
            (["TERM": "xterm-kitty"], .kitty),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], .kitty),
            (["TERM_PROGRAM": "kitty"], .kitty),
            (["TERM_PROGRAM": "iTerm.app"], .iTerm),
            (["LC_TERMINAL": "iTerm2"], .iTerm),
            (["TERM_PROGRAM": "WezTerm"], .iTerm),
            (["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"], .blocks),
            (["TERM_PROGRAM": "iTerm.app", "STY": "12.pts-0"], .blocks),
            (["TERM": "screen-256color", "KITTY_WINDOW_ID": "1"], .blocks),
            (["TERM": "tmux-256color", "LC_TERMINAL": "iTerm2"], .blocks),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"], .blocks),
            (["ERRAND_PICTURES": "kitty", "TMUX": "x"], .kitty),
            (["ERRAND_PICTURES": "iterm"], .iTerm),
            (["ERRAND_PICTURES": "blocks", "TERM": "xterm-kitty"], .blocks),
            (["ERRAND_PICTURES": "none"], .none),
            (["ERRAND_PICTURES": "sixel", "TERM": "xterm-kitty"], .kitty),
        ])
    func detection(environment: [String: String], expected: PictureMode) {
        #expect(PictureMode.detect(environment: environment) == expected)
    }

    @Test("kitty: one escape with the keys, the RGB bytes in base64, the size in pixels and cells")
    func kittySmall() throws {
        let output = KittyGraphics.show(Self.placement, id: 9)
        let escapes = Self.kittyEscapes(output)
        #expect(escapes.count == 1)
        #expect(output.hasPrefix("\u{1B}_G") && output.hasSuffix("\u{1B}\\"))
        let keys = Set(escapes[0].control.split(separator: ",").map(String.init))
        #expect(keys == ["a=T", "f=24", "s=10", "v=8", "c=5", "r=2", "C=1", "i=9", "q=2", "m=0"])
        #expect(Data(base64Encoded: escapes[0].payload) == Data(Self.placement.picture.pixels))
    }

    @Test("kitty: a large picture in 4096-character pieces, m=1 on all but the last, the keys on the first only")
    func kittyChunks() throws {
        let picture = Self.counting(width: 64, height: 48)
        let placement = PicturePlacement(picture: picture, row: 0, column: 0, size: Size(columns: 8, rows: 3))
        let escapes = Self.kittyEscapes(KittyGraphics.show(placement, id: 1))
        let base64Length = (picture.pixels.count + 2) / 3 * 4
        #expect(escapes.count == (base64Length + 4095) / 4096)
        #expect(escapes.count > 2)
        #expect(escapes[0].control.hasPrefix("a=T,f=24,s=64,v=48,c=8,r=3,"))
        #expect(escapes[0].control.hasSuffix(",m=1"))
        for escape in escapes.dropFirst().dropLast() { #expect(escape.control == "m=1") }
        #expect(escapes.last?.control == "m=0")
        for escape in escapes.dropLast() { #expect(escape.payload.count == 4096) }
        let joined = escapes.map(\.payload).joined()
        #expect(Data(base64Encoded: joined) == Data(picture.pixels))
    }

    @Test("kitty: deleting one image by number, or all of them")
    func kittyDelete() {
        #expect(KittyGraphics.delete(id: 42) == "\u{1B}_Ga=d,d=I,i=42,q=2\u{1B}\\")
        #expect(KittyGraphics.deleteAll == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
    }

    @Test("iTerm2: an OSC 1337 file, sized in cells, ended by BEL, whose PNG decodes back to the picture")
    func iTerm() throws {
        let output = ITermImage.show(Self.placement)
        #expect(output.hasPrefix("\u{1B}]1337;File=inline=1;"))
        #expect(output.hasSuffix("\u{07}"))
        #expect(output.filter { $0 == "\u{07}" }.count == 1)
        let header = try #require(output.split(separator: ":").first)
        #expect(header.contains(";width=5;height=2;preserveAspectRatio=0"))
        let base64 = String(output.dropFirst(header.count + 1).dropLast())
        let file = try #require(Data(base64Encoded: base64))
        #expect(header.contains("size=\(file.count);"))
        #expect(file.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        if PictureDecoder.isAvailable { #expect(PictureDecoder.decode(file) == Self.placement.picture) }
    }

    @Test("PNG: stored blocks split at 65,535 bytes and checksums as zlib's reference values")
    func pngEncoding() {
        #expect(PNGEncoding.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGEncoding.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        let large = Self.counting(width: 200, height: 120)
        if PictureDecoder.isAvailable { #expect(PictureDecoder.decode(Data(PNGEncoding.data(large))) == large) }
    }

    @Test("with a protocol the picture's cells stay blank and it is placed over them; half blocks are unchanged")
    func reservedCells() {
        let picture = Self.counting(width: 40, height: 40)
        var images = Grid(size: Size(columns: 10, rows: 6))
        images.write("xxxxxxxxxx", row: 1, column: 0)
        let used = PictureCells.draw(
            picture, in: &images, row: 1, column: 2, box: Size(columns: 6, rows: 3), mode: .kitty)
        #expect(used == Size(columns: 6, rows: 3))
        #expect(images.placements == [PicturePlacement(picture: picture, row: 1, column: 2, size: used)])
        #expect(images.text.split(separator: "\n", omittingEmptySubsequences: false)[1] == "xx      xx")
        var blocks = Grid(size: Size(columns: 10, rows: 6))
        PictureCells.draw(picture, in: &blocks, row: 1, column: 2, box: Size(columns: 6, rows: 3))
        #expect(blocks.placements.isEmpty)
        #expect(blocks[1, 2].character == "▀")
    }

    @Test("a large picture is sent at no more than 16 pixels a cell")
    func sentResolution() {
        var grid = Grid(size: Size(columns: 10, rows: 6))
        PictureCells.draw(
            Self.counting(width: 400, height: 400), in: &grid, row: 0, column: 0, box: Size(columns: 4, rows: 2),
            mode: .iTerm)
        #expect(grid.placements.first?.picture.width == 64)
        #expect(grid.placements.first?.picture.height == 64)
    }

    static func listFrame(_ mode: PictureMode, help: Bool = false) -> Frame {
        let rows = [
            ListBody.Row(title: "Arrabiata", subtitle: "Italian", picture: .ready(counting(width: 12, height: 6))),
            ListBody.Row(title: "Ramen", subtitle: "Japanese", picture: .loading),
        ]
        return Frame(
            title: "mealdb", source: "replica", searchLabel: "Search", query: "", searchFocused: false,
            heading: "Meals", body: .list(ListBody(rows: rows, selection: 0, showsPictures: true)), showsHelp: help,
            pictures: mode)
    }

    @Test("a list's thumbnails are placements at their cells; the help overlay hides them; none draws labels")
    func listPlacements() {
        let size = Size(columns: 80, rows: 24)
        let kitty = FrameRenderer.render(Self.listFrame(.kitty), size: size)
        #expect(kitty.placements.count == 1)
        let placed = kitty.placements.first
        #expect(placed?.row == 3 && placed?.column == 1)
        #expect(placed?.size == Size(columns: 6, rows: 2))
        #expect(kitty[3, 1] == .blank)
        #expect(FrameRenderer.render(Self.listFrame(.kitty, help: true), size: size).placements.isEmpty)
        let blocks = FrameRenderer.render(Self.listFrame(.blocks), size: size)
        #expect(blocks.placements.isEmpty)
        #expect(blocks[3, 1].character == "▀")
        let none = FrameRenderer.render(Self.listFrame(.none), size: size)
        #expect(none.placements.isEmpty)
        #expect(none[3, 1].character == "┌")
    }

    @Test("on a scrolled page a picture is placed where it shows, and left out once partly scrolled away")
    func scrolledPage() {
        let text = TextBody(
            title: "Arrabiata", picture: .ready(Self.counting(width: 40, height: 40)),
            sections: [.init("Instructions", .paragraph(String(repeating: "Stir. ", count: 400)))])
        func frame(scroll: Int) -> Frame {
            var body = text
            body.scroll = scroll
            return Frame(
                title: "mealdb", source: "", searchLabel: "Search", query: "", searchFocused: false, heading: "",
                body: .text(body), pictures: .kitty)
        }
        let size = Size(columns: 80, rows: 24)
        let top = FrameRenderer.render(frame(scroll: 0), size: size)
        #expect(top.placements.map(\.row) == [3])
        #expect(top.placements.first?.size.rows == 13)
        #expect(FrameRenderer.render(frame(scroll: 1), size: size).placements.isEmpty)
    }

    @Test("an unchanged image is not sent again; a moved one is deleted and placed anew; a resize starts over")
    func updates() {
        var first = Grid(size: Size(columns: 20, rows: 10))
        first.place(Self.placement)
        let initial = PlacementUpdate.encode(from: nil, to: first, mode: .kitty)
        #expect(initial.before == KittyGraphics.deleteAll)
        let id = PlacementUpdate.id(of: Self.placement)
        #expect(initial.after == "\u{1B}[5;3H" + KittyGraphics.show(Self.placement, id: id))
        let same = PlacementUpdate.encode(from: first, to: first, mode: .kitty)
        #expect(same.before.isEmpty && same.after.isEmpty)
        var moved = Self.placement
        moved.row = 6
        var second = Grid(size: Size(columns: 20, rows: 10))
        second.place(moved)
        let move = PlacementUpdate.encode(from: first, to: second, mode: .kitty)
        #expect(move.before == KittyGraphics.delete(id: id))
        #expect(move.after.hasPrefix("\u{1B}[7;3H\u{1B}_G"))
        let gone = PlacementUpdate.encode(from: first, to: Grid(size: first.size), mode: .kitty)
        #expect(gone.before == KittyGraphics.delete(id: id) && gone.after.isEmpty)
        let resized = PlacementUpdate.encode(from: first, to: Grid(size: Size(columns: 30, rows: 10)), mode: .kitty)
        #expect(resized.before == KittyGraphics.deleteAll)
        #expect(PlacementUpdate.encode(from: nil, to: first, mode: .blocks) == ("", ""))
    }

    @Test("iTerm2: a removed image is overwritten with spaces, since its cells stay blank in both grids")
    func iTermRemoval() {
        var first = Grid(size: Size(columns: 20, rows: 10))
        first.place(Self.placement)
        let gone = PlacementUpdate.encode(from: first, to: Grid(size: first.size), mode: .iTerm)
        #expect(gone.before == "\u{1B}[0m\u{1B}[5;3H     \u{1B}[6;3H     ")
        #expect(gone.after.isEmpty)
        let shown = PlacementUpdate.encode(from: Grid(size: first.size), to: first, mode: .iTerm)
        #expect(shown.before.isEmpty)
        #expect(shown.after == "\u{1B}[5;3H" + ITermImage.show(Self.placement))
    }

    @Test("the cell update of a grid with images is the same as without: the diffing is untouched")
    func cellsUnchanged() {
        var withImage = Grid(size: Size(columns: 20, rows: 10))
        withImage.write("hello", row: 0, column: 0)
        var plain = withImage
        withImage.place(Self.placement)
        #expect(
            ScreenUpdate.encode(from: nil, to: withImage, colors: .trueColor)
                == ScreenUpdate.encode(from: nil, to: plain, colors: .trueColor))
        plain.write("x", row: 9, column: 0)
        #expect(ScreenUpdate.encode(from: withImage, to: withImage, colors: .trueColor).isEmpty)
    }
}
