import Errand
import Foundation
import TestSupport
import Testing

@testable import TerminalUI

/// The replica's pictures through libjpeg-turbo and libpng: the same generated picture served as JPEG and as PNG
/// decodes to the same size and, within JPEG's loss, the same colours.
@Suite(
    "Pictures from the replica", .enabled(if: TestServer.replica.isUsable),
    .enabled(if: PictureDecoder.isAvailable, "built without the picture decoders"))
struct ReplicaPictureTests {
    @Test("a Met object's small JPEG and its PNG twin decode alike")
    func jpegAndPNG() async throws {
        let client = APIClient(baseURL: try TestServer.replica.url())
        let path = "CRDImages/ep/web-large/7001"
        let jpeg = try await client.send(Request<Data>(path: path + ".jpg")).value
        let png = try await client.send(Request<Data>(path: path + ".png")).value
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        let fromJPEG = try #require(PictureDecoder.decode(jpeg, minimumSide: 0))
        let fromPNG = try #require(PictureDecoder.decode(png))
        #expect(fromJPEG.width == 80 && fromJPEG.height == 60)
        #expect(fromPNG.width == 80 && fromPNG.height == 60)
        var worst = 0
        for (a, b) in zip(fromJPEG.pixels, fromPNG.pixels) { worst = max(worst, abs(Int(a) - Int(b))) }
        #expect(worst <= 12, "the largest difference of a channel between the JPEG and the PNG is \(worst)")
        let corners = [fromPNG.color(x: 0, y: 0), fromPNG.color(x: 79, y: 59)]
        #expect(corners[0] != corners[1], "a gradient, not a flat colour")
    }

    @Test("libjpeg scales a large JPEG down while decoding, keeping the shorter side at least as asked")
    func scaledDecoding() async throws {
        let client = APIClient(baseURL: try TestServer.replica.url())
        let original = try await client.send(Request<Data>(path: "CRDImages/ep/original/7001.jpg")).value
        let full = try #require(PictureDecoder.decode(original, minimumSide: 0))
        #expect(full.width == 160 && full.height == 120)
        let half = try #require(PictureDecoder.decode(original, minimumSide: 60))
        #expect(half.width == 80 && half.height == 60)
    }
}
