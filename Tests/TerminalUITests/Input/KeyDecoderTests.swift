import Testing

@testable import TerminalUI

@Suite("Key decoder")
struct KeyDecoderTests {
    func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test("printable characters, UTF-8, control keys")
    func characters() {
        #expect(keys("q") == [.character("q")])
        #expect(keys("é寿🍝") == [.character("é"), .character("寿"), .character("🍝")])
        #expect(keys("\r\u{7F}\u{08}\t\u{03}") == [.enter, .backspace, .backspace, .tab, .interrupt])
    }

    @Test("cursor keys in CSI and SS3 form, paging keys, Home and End")
    func sequences() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB") == [.up, .down])
        #expect(
            keys("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~") == [
                .pageUp, .pageDown, .home, .end, .home, .end,
            ])
        #expect(keys("\u{1B}[1;5A") == [.up], "a modified arrow is the arrow")
    }

    @Test("Escape alone at the end of a read; a sequence split across reads waits for the rest")
    func escape() {
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)).isEmpty)
        #expect(decoder.feed(Array("B".utf8)) == [.down])
        #expect(decoder.feed([0xE5, 0xAF]).isEmpty)
        #expect(decoder.feed([0xBF]) == [.character("寿")])
        #expect(decoder.state == .ground)
    }

    @Test("the mouse wheel in SGR form; clicks are ignored")
    func mouse() {
        #expect(keys("\u{1B}[<64;10;5M\u{1B}[<65;10;5M") == [.wheelUp, .wheelDown])
        #expect(keys("\u{1B}[<0;10;5M\u{1B}[<0;10;5m").isEmpty)
    }

    @Test("bytes that are not UTF-8 are dropped without losing the next key")
    func invalid() {
        #expect(keys("\u{FF}") == [.character("ÿ")], "valid UTF-8 of U+00FF")
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xC3, 0x41]) == [.character("A")])
        #expect(decoder.feed([0x80, 0x62]) == [.character("b")])
    }
}
