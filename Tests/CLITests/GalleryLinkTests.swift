import CommandLine
import Foundation
import Testing

/// A gallery shows an API's values as data: only web addresses become links, and no picture is saved as a kind of
/// file a browser would run.
@Suite("Security: gallery links and pictures are data")
struct GalleryLinkTests {
    private func page(_ items: [GalleryItem], image: Data = Data([0x89, 0x50, 0x4E, 0x47])) async throws -> (
        String, URL
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-links-\(UUID().uuidString)")
        let gallery = Gallery(title: "t", generator: "test", items: items)
        let report = try await GalleryWriter().write(gallery, to: folder) { _ in image }
        return (try String(contentsOf: report.indexFile, encoding: .utf8), folder)
    }

    @Test(
        "javascript:, data: and file: links are shown as text; https and http links stay links",
        arguments: [
            ("javascript:alert(document.domain)//", false), ("JaVaScRiPt:alert(1)", false),
            ("data:text/html,<script>alert(1)</script>", false), ("file:///etc/passwd", false),
            ("https://www.metmuseum.org/art/collection/search/436535", true), ("http://127.0.0.1:8080/x", true),
        ])
    func links(link: String, isLink: Bool) async throws {
        let (html, folder) = try await page([GalleryItem(title: "Wheat Field", link: URL(string: link))])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(html.contains("Wheat Field"))
        #expect(html.contains("href=\"\(link.replacingOccurrences(of: "&", with: "&amp;"))\"") == isLink, "\(link)")
        #expect(!html.lowercased().contains("href=\"javascript:"))
    }

    @Test("a picture whose URL says .svg is saved as .img, so its link never opens a document that runs script")
    func svgIsNotSavedAsSVG() async throws {
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let item = GalleryItem(title: "Logo", imageURL: URL(string: "https://example.com/logo.svg"))
        let (html, folder) = try await page([item], image: svg)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("thumbnails").path)
        #expect(files == ["001.img"])
        #expect(!html.contains(".svg\""))
    }
}
