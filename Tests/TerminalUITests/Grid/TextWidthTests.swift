import Testing

@testable import TerminalUI

@Suite("Text widths")
struct TextWidthTests {
    @Test("ASCII, accents, combining marks, wide and emoji characters")
    func widths() {
        #expect(TextWidth.of("Pasta") == 5)
        #expect(TextWidth.of("Crème brûlée") == 12)
        #expect(TextWidth.of("e\u{301}") == 1, "a base letter and a combining accent take one column")
        #expect(TextWidth.of("寿司") == 4)
        #expect(TextWidth.of("김치") == 4)
        #expect(TextWidth.of("🍝") == 2)
        #expect(TextWidth.of("❤\u{FE0F}") == 2, "emoji presentation selector")
        #expect(TextWidth.of("\u{200B}") == 0)
        #expect(TextWidth.of("ｶ") == 1, "halfwidth katakana stays narrow")
    }

    @Test("truncation never splits a wide character and ends with an ellipsis")
    func truncation() {
        #expect(TextWidth.truncate("Sunflowers", to: 20) == "Sunflowers")
        #expect(TextWidth.truncate("Sunflowers", to: 5) == "Sunf…")
        #expect(TextWidth.truncate("寿司寿司", to: 4) == "寿…")
        #expect(TextWidth.of(TextWidth.truncate("寿司寿司", to: 4)) <= 4)
    }

    @Test("wrapping keeps words whole, cuts words longer than a line, keeps paragraphs")
    func wrapping() {
        #expect(TextWidth.wrap("Boil the pasta until tender", to: 10) == ["Boil the", "pasta", "until", "tender"])
        #expect(TextWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWidth.wrap("one\n\ntwo", to: 10) == ["one", "", "two"])
        #expect(TextWidth.wrap("寿司 寿司寿司", to: 4) == ["寿司", "寿司", "寿司"])
    }
}
