@testable import Errand
import Foundation
import Testing

/// The public suffix list's rules (normal, `*.` wildcard, `!` exception), and the system's list where it is.
@Suite("Public suffix list")
struct PublicSuffixListTests {
    @Test func normalWildcardAndExceptionRules() {
        let list = PublicSuffixList(text: "// a comment\ncom\n\n*.ck\n!www.ck\nco.uk  trailing words\n")
        #expect(list.isLoaded)
        #expect(list.isPublicSuffix("com"))
        #expect(list.isPublicSuffix("co.uk"))
        #expect(!list.isPublicSuffix("example.com"))
        #expect(list.isPublicSuffix("anything.ck"))
        #expect(!list.isPublicSuffix("www.ck"))
        #expect(!list.isPublicSuffix("a.anything.ck"))
        #expect(list.isPublicSuffix("tld"), "the implicit * rule: any single label")
    }

    @Test func unicodeRulesAreComparedIDNAEncoded() {
        let list = PublicSuffixList(text: "公司.cn\n")
        #expect(list.isPublicSuffix("xn--55qx5d.cn"))
    }

    @Test func withoutAListOnlySingleLabelsArePublic() {
        let bare = PublicSuffixList.singleLabel
        #expect(!bare.isLoaded)
        #expect(bare.isPublicSuffix("localhost"))
        #expect(!bare.isPublicSuffix("co.uk"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: PublicSuffixList.systemPath)))
    func theSystemListIsReadWhereTheSystemHasIt() {
        let system = PublicSuffixList.system
        #expect(system.isLoaded)
        for suffix in ["com", "co.uk", "github.io", "s3.amazonaws.com", "anything.kawasaki.jp", "anything.ck"] {
            #expect(system.isPublicSuffix(suffix), "\(suffix)")
        }
        for domain in ["example.com", "bbc.co.uk", "kawasaki.jp", "city.kawasaki.jp", "www.ck", "user.github.io"] {
            #expect(!system.isPublicSuffix(domain), "\(domain)")
        }
    }
}
