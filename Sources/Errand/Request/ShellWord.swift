import Foundation

/// One word of a POSIX shell command, written so that bash, zsh and dash all read it as the same bytes and a
/// terminal showing it interprets none of them.
///
/// Text goes in single quotes, where none of the three shells expands anything. A character a terminal would act on
/// (the C0 and C1 controls, DEL, the bidirectional overrides, the line and paragraph separators) is never written
/// as itself: it comes from `"$(printf '\ooo')"`, octal escapes that all three shells' `printf` read. A newline and
/// a tab stay as they are, inside the quotes, because command substitution would strip a trailing newline. A word
/// cannot hold NUL: no command-line argument can.
struct ShellWord {
    /// A piece of the word.
    enum Piece {
        /// Text taken literally.
        case text(String)
        /// A shell variable expanded in place, written in double quotes (`"$parts/1"`); `name` is trusted.
        case expansion(String)
    }

    var pieces: [Piece]

    init(_ pieces: [Piece]) { self.pieces = pieces }

    init(_ text: String) { pieces = [.text(text)] }

    /// The word as shell text.
    var rendered: String {
        if pieces.count == 1, case .text(let text) = pieces[0], Self.isPlain(text) { return text }
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += Self.quotedPieces(text)
            case .expansion(let name): result += "\"\(name)\""
            }
        }
        return result.isEmpty ? "''" : result
    }

    /// The text as one shell word; see ``ShellWord``.
    static func quoted(_ text: String) -> String { ShellWord(text).rendered }

    /// Characters no shell treats specially anywhere in a word, except `=`, which zsh expands at a word's start
    /// (`=ls` is the path of `ls`).
    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first != "=" else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9": return true
            default: return "-_./:@%+,=".unicodeScalars.contains(scalar)
            }
        }
    }

    /// The text as adjacent quoted pieces: runs of characters safe to show in single quotes, and runs that must be
    /// escaped as `"$(printf '…')"`.
    private static func quotedPieces(_ text: String) -> String {
        var result = ""
        var shown = ""
        var escaped = [UInt8]()
        func flushShown() {
            guard !shown.isEmpty else { return }
            result += "'" + shown.replacingOccurrences(of: "'", with: "'\\''") + "'"
            shown = ""
        }
        func flushEscaped() {
            guard !escaped.isEmpty else { return }
            result += "\"$(printf '" + escaped.map(octal).joined() + "')\""
            escaped = []
        }
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                flushShown()
                escaped += Array(String(scalar).utf8)
            } else {
                flushEscaped()
                shown.unicodeScalars.append(scalar)
            }
        }
        flushShown()
        flushEscaped()
        return result
    }

    /// Whether a terminal might act on the character rather than show it.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00..<0x20, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `\ooo`: a byte as POSIX `printf` reads it in its format.
    static func octal(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 8)
        return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// A `printf` command that writes exactly `data`: printable ASCII as itself, every other byte as an octal escape,
    /// `%` and `\` escaped, `'` as `\047` so the format stays one single-quoted word.
    static func printf(_ data: Data) -> String {
        var format = ""
        for byte in data {
            switch byte {
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += "\\\\"
            case UInt8(ascii: "'"): format += "\\047"
            case 0x20...0x7E: format.unicodeScalars.append(UnicodeScalar(byte))
            default: format += octal(byte)
            }
        }
        return "printf '\(format)'"
    }
}
