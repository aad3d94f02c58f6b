import Foundation

/// One multipart part as a curl option, written so that curl reads every byte of it literally and reads no file
/// but the part's own.
///
/// curl's `-F` gives meaning to a leading `@` or `<` and to `;type=`, `;filename=`, `;headers=` and `;encoder=`
/// anywhere in the value (`;headers=@FILE` reads that file). So a text field goes with `--form-string`, which takes
/// its value as it is, and every other part names its content's file in double quotes (curl's own quoting, `\` and
/// `"` escaped) with its filename quoted the same way. curl then writes the part's `Content-Disposition` as Errand
/// does (it escapes `"`, CR and LF of a name as `%22`, `%0D`, `%0A` too).
///
/// Two things curl's syntax cannot say: a name that is empty or holds `=` (curl ends the name at the first `=`),
/// and a `Content-Type` that curl would read as more options (`text/plain;headers=X: 1`) or cannot parse. Such a
/// part gets its `Content-Disposition` and `Content-Type` lines given whole through `;headers="…"`, quoted; curl
/// writes a given `Content-Type` before the other header lines, so there the part's two lines come in the other
/// order.
struct CurlFormOption {
    /// The option and its argument as shell words.
    var words: [ShellWord]
    /// The bytes to write to the option's file first, when the part's content is in memory.
    var fileContent: Data?

    /// The option for `part` (its secrets already masked); in-memory content is read from `file`, the expansion of
    /// a shell variable that names a file the command writes first.
    init(part: MultipartPart, file: String) {
        let content: [ShellWord.Piece]
        switch part.content {
        case .bytes(let data):
            if part.filename == nil, part.contentType == nil, Self.isCurlName(part.name), !data.contains(0) {
                words = [
                    ShellWord("--form-string"), ShellWord(part.name + "=" + String(decoding: data, as: UTF8.self)),
                ]
                fileContent = nil
                return
            }
            content = [.text("\""), .expansion(file), .text("\"")]
            fileContent = data
        case .file(let url):
            content = [.text(Self.curlQuoted(url.path))]
            fileContent = nil
        }
        var argument: [ShellWord.Piece]
        if Self.isCurlName(part.name), part.contentType.map(Self.isCurlType) ?? true,
            part.filename == nil || part.contentType != nil
        {
            // `@` names a filename (given explicitly, not the file's own); `<` sends none.
            argument = [.text(part.name + (part.filename == nil ? "=<" : "=@"))] + content
            if let filename = part.filename { argument.append(.text(";filename=" + Self.curlQuoted(filename))) }
            if let contentType = part.contentType { argument.append(.text(";type=" + contentType)) }
        } else {
            argument = [.text("=<")] + content
            for line in Self.headerLines(of: part) { argument.append(.text(";headers=" + Self.curlQuoted(line))) }
        }
        words = [ShellWord("-F"), ShellWord(argument)]
    }

    /// Why no command can send `part` as Errand does, or `nil`: a NUL in its name or filename (no command-line
    /// argument can carry one).
    static func problem(with part: MultipartPart, index: Int) -> String? {
        if part.name.utf8.contains(0) { return "the name of multipart part \(index + 1) contains a NUL byte" }
        if part.filename?.utf8.contains(0) == true {
            return "the filename of multipart part \(index + 1) contains a NUL byte"
        }
        return nil
    }

    /// Whether curl's `name=` syntax can say `name`: it is not empty and has no `=`.
    private static func isCurlName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("=")
    }

    /// Whether curl reads `;type=TYPE` back as exactly `TYPE`.
    ///
    /// curl takes `major/minor` (neither part with a space, the minor without `,` or `;`), then every `;`-separated
    /// parameter up to one that starts with a word it knows as an option, and it drops spaces at either end.
    private static func isCurlType(_ type: String) -> Bool {
        guard let first = type.unicodeScalars.first, let last = type.unicodeScalars.last,
            !Self.isSpace(first), !Self.isSpace(last), !type.contains(",")
        else { return false }
        let parameters = type.split(separator: ";", omittingEmptySubsequences: false)
        let mediaType = parameters[0].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard mediaType.count == 2, let major = mediaType.first, let minor = mediaType.last,
            !major.isEmpty, !minor.isEmpty, major.utf8.count < 128, minor.utf8.count < 128,
            !major.unicodeScalars.contains(where: isSpace), !minor.unicodeScalars.contains(where: isSpace)
        else { return false }
        return parameters.dropFirst().allSatisfy { parameter in
            let word = parameter.drop { isSpace($0.unicodeScalars.first!) }.lowercased()
            return !["filename=", "headers=", "encoder=", "type="].contains { word.hasPrefix($0) }
        }
    }

    /// C's `isspace`, which curl's parser uses.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(scalar)
    }

    /// The part's header lines as Errand sends them, without line breaks.
    private static func headerLines(of part: MultipartPart) -> [String] {
        String(decoding: part.headerBlock, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    /// Text in curl's `-F` quoting: double quotes, with `\` and `"` escaped by a backslash.
    static func curlQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
