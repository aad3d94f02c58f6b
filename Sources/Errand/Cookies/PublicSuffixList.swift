import Foundation

/// The public suffix list (publicsuffix.org): the domains under which anyone may register a name (`com`, `co.uk`,
/// `github.io`), which a ``CookieJar`` refuses as cookie domains so that one site cannot set cookies for all the
/// others under the same suffix.
///
/// ``system`` reads the list the system ships (`/usr/share/publicsuffix/public_suffix_list.dat` from Debian's and
/// Ubuntu's `publicsuffix` package); where there is none, it is ``singleLabel``, which refuses only single-label
/// domains (`com`, `localhost`): `Domain=co.uk` is then accepted from `shop.co.uk`. Apps that set cookies on such
/// domains should bundle the list and load it with ``init(contentsOf:)``.
public struct PublicSuffixList: Sendable {
    private let rules: Set<String>
    private let wildcards: Set<String>
    private let exceptions: Set<String>
    /// Whether this is a list read from a file (`false` for ``singleLabel``).
    public let isLoaded: Bool

    /// Where Debian and Ubuntu install the list.
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The system's list, read once; ``singleLabel`` where the system has none.
    public static let system: PublicSuffixList =
        (try? PublicSuffixList(contentsOf: URL(fileURLWithPath: systemPath))) ?? .singleLabel

    /// No list: only single-label domains count as public suffixes (the list's implicit `*` rule).
    public static let singleLabel = PublicSuffixList(rules: [], wildcards: [], exceptions: [], isLoaded: false)

    /// Reads a list in the publicsuffix.org format (one rule a line, `//` comments, `*.` wildcards, `!` exceptions).
    public init(contentsOf url: URL) throws {
        self.init(text: try String(contentsOf: url, encoding: .utf8))
    }

    /// Parses a list in the publicsuffix.org format.
    public init(text: String) {
        var rules = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            guard let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//") else { continue }
            if rule.hasPrefix("!") {
                CookieDomain.canonical(String(rule.dropFirst())).map { _ = exceptions.insert($0) }
            } else if rule.hasPrefix("*.") {
                CookieDomain.canonical(String(rule.dropFirst(2))).map { _ = wildcards.insert($0) }
            } else {
                CookieDomain.canonical(String(rule)).map { _ = rules.insert($0) }
            }
        }
        self.init(rules: rules, wildcards: wildcards, exceptions: exceptions, isLoaded: true)
    }

    private init(rules: Set<String>, wildcards: Set<String>, exceptions: Set<String>, isLoaded: Bool) {
        self.rules = rules
        self.wildcards = wildcards
        self.exceptions = exceptions
        self.isLoaded = isLoaded
    }

    /// Whether a canonical domain (lower case, IDNA-encoded) is a public suffix: the list's prevailing rule for it
    /// covers all of it. A single label always is. A trailing dot (an absolute name: `com.`, `co.uk.`) is read
    /// through, so it names the same suffix as without.
    public func isPublicSuffix(_ domain: String) -> Bool {
        let domain = domain.hasSuffix(".") ? String(domain.dropLast()) : domain
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count > 1 else { return true }
        if exceptions.contains(domain) { return false }
        if rules.contains(domain) { return true }
        let parent = labels.dropFirst().joined(separator: ".")
        return wildcards.contains(parent)
    }
}
